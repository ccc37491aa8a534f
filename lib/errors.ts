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

/** An upload without a file part: HTTP 404 whatever the endpoint's status policy (web-api.txt 7.2). */
export class NoFilePartError extends ApiError {
  constructor() {
    super(404, messages.noFile, 'no file part', 404);
  }
}

/** An upload whose body is not multipart/form-data: HTTP 404 (web-api.txt 7.2). */
export class NotMultipartError extends ApiError {
  constructor(contentType: string | undefined) {
    super(404, messages.notMultipart, `content type ${contentType}`, 404);
  }
}

/** A multipart body that cannot be read to its end: HTTP 500 (web-api.txt 7.2), but the client's fault. */
export class UnreadableMultipartError extends ApiError {
  constructor(reason: string) {
    super(500, messages.unreadableMultipart, reason, 500);
  }
}

/** A request body over the 6 MB that API Gateway and Lambda take (CONTRACT section 1). */
export class RequestTooLargeError extends ApiError {
  constructor(reason: string) {
    super(413, messages.requestTooLarge, reason, 413);
  }
}
