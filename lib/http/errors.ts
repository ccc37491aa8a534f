import { messages } from './messages';

/**
 * The one error hierarchy. Each error carries the spec's StatusCode and its public message; `reason`
 * says why for the log and never reaches the response.
 */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly statusCode: number,
    message: string,
    readonly reason?: string,
    /** The HTTP status when it must differ from what the endpoint's status policy gives (the upload's
     * transport failures, web-api.txt 7.2). */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

export class BadRequestError extends ApiError {
  constructor(reason?: string) {
    super(400, messages.badRequest, reason);
  }
}

/**
 * A request the service understood but cannot carry out exactly (a View filter it cannot apply, a field
 * of a feature it lacks): the public message names what, so the caller can fix it. Never ignored, since an
 * ignored filter widens what a caller may then delete (CONTRACT 5.1).
 */
export class UnsupportedInputError extends ApiError {
  constructor(readonly what: string) {
    super(400, messages.invalidRequestNaming(what), what);
  }
}

export class InvalidJsonError extends ApiError {
  constructor(reason?: string) {
    super(400, messages.invalidJsonData, reason);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(reason: string) {
    super(401, messages.unauthorized, reason);
  }
}

export class ForbiddenError extends ApiError {
  constructor(reason: string) {
    super(403, messages.hasNotPermission, reason);
  }
}

export class InvalidIpAddressError extends ApiError {
  constructor(reason: string) {
    super(403, messages.invalidIpAddress, reason);
  }
}

export class NotFoundError extends ApiError {
  constructor(reason?: string) {
    super(404, messages.notFound, reason);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(reason?: string) {
    super(405, messages.methodNotAllowed, reason);
  }
}

export class DuplicatedError extends ApiError {
  constructor(what: string) {
    super(409, messages.duplicated(what), `duplicated ${what}`);
  }
}

export class LockedRecordError extends ApiError {
  constructor(id: number, user: string, time: string) {
    super(405, messages.lockedRecord(id, user, time), `record ${id} is locked`);
  }
}

export class OverLimitApiError extends ApiError {
  constructor(siteId: number, limit: number) {
    super(429, messages.overLimitApi(siteId, limit), `site ${siteId} is over its daily API limit`);
  }
}

/** 441: more files in an attachment column than it allows. */
export class OverLimitQuantityError extends ApiError {
  constructor(limit: number, reason: string) {
    super(441, messages.overLimitQuantity(limit), reason);
  }
}

/** 442: a file larger than allowed (BinaryStorage.MaxSize, or the column's LimitSize). */
export class OverLimitSizeError extends ApiError {
  constructor(limitMb: number, reason: string) {
    super(442, messages.overLimitSize(limitMb), reason);
  }
}

/** 443: the files of an attachment column together larger than it allows. */
export class OverTotalLimitSizeError extends ApiError {
  constructor(limitMb: number, reason: string) {
    super(443, messages.overTotalLimitSize(limitMb), reason);
  }
}

/** Upsert Keys that name no column of the table, or whose value the body does not carry. */
export class UpsertKeyError extends ApiError {
  constructor(keys: readonly string[]) {
    super(400, messages.upsertKeyInvalid(keys.join(', ')), `invalid upsert keys ${keys.join(', ')}`);
  }
}

/** An upsert whose Keys match more than one record. */
export class MultipleMatchesError extends ApiError {
  constructor(reason: string) {
    super(400, messages.multipleMatches, reason);
  }
}
