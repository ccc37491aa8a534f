import { messages } from './messages';

/** What was wrong with a request, for the caller: the property (a path such as `ClassHash.ClassA`) and why. */
export interface InputProblem {
  readonly Property?: string;
  readonly Problem: string;
}

/**
 * The one error hierarchy. Each error carries the spec's StatusCode and its public message; `reason`
 * says why for the log and never reaches the response, except for a 400, whose problems are the caller's
 * own input and are answered in the envelope's `Errors` list beside the reference's Message.
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
    /** The public list of what was wrong with the input (400 only). */
    readonly problems: readonly InputProblem[] = [],
  ) {
    super(message);
  }
}

/** 400 `Invalid request.`: the reason is the input's problem, answered in `Errors`. */
export class BadRequestError extends ApiError {
  constructor(reason?: string, property?: string) {
    super(400, messages.badRequest, reason, undefined, problemsOf(reason, property));
  }
}

/** 400 `Invalid request.` with every problem the body's schema found. */
export class InvalidInputError extends ApiError {
  constructor(problems: readonly InputProblem[]) {
    const reason = problems.map((problem) => `${problem.Property ?? 'body'}: ${problem.Problem}`).join('; ');
    super(400, messages.badRequest, reason, undefined, problems);
  }
}

/**
 * 400 `Invalid request.` for a value outside what Kiroku keeps (CONTRACT section 5, "Bounds"): a length,
 * a depth, a number a float cannot hold. `Errors` names the property.
 */
export class OutOfBoundsError extends ApiError {
  constructor(property: string, problem: string) {
    super(400, messages.badRequest, `${property}: ${problem}`, undefined, [
      { Property: property, Problem: problem },
    ]);
  }
}

/**
 * A request the service understood but cannot carry out exactly (a View filter it cannot apply, a field
 * of a feature it lacks): the message names what, so the caller can fix it. Never ignored, since an
 * ignored filter widens what a caller may then delete (CONTRACT 5.1).
 */
export class UnsupportedInputError extends ApiError {
  constructor(readonly what: string) {
    super(400, messages.invalidRequestNaming(what), what, undefined, [{ Problem: what }]);
  }
}

/** Upsert Keys that name no column of the table, or whose value the body does not carry. */
export class UpsertKeyError extends ApiError {
  constructor(keys: readonly string[]) {
    const reason = `invalid upsert keys ${keys.join(', ')}`;
    super(400, messages.upsertKeyInvalid(keys.join(', ')), reason, undefined, [{ Problem: reason }]);
  }
}

/** An upsert whose Keys match more than one record. */
export class MultipleMatchesError extends ApiError {
  constructor(reason: string) {
    super(400, messages.multipleMatches, reason, undefined, [{ Problem: reason }]);
  }
}

/** 400 `Invalid json data.`: a body that is not JSON, or not of the shape every request shares. */
export class InvalidJsonError extends ApiError {
  constructor(reason?: string, property?: string) {
    super(400, messages.invalidJsonData, reason, undefined, problemsOf(reason, property));
  }
}

function problemsOf(reason: string | undefined, property: string | undefined): InputProblem[] {
  return reason === undefined ? [] : [{ Property: property, Problem: reason }];
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

/** A browser's request made from another site's page, where only the service's own pages may post. */
export class CrossSiteRequestError extends ApiError {
  constructor(reason: string) {
    super(403, messages.crossSiteRequest, reason);
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

/** 404 for an operation of the reference that Kiroku does not offer, named so it is not taken for a wrong id. */
export class OperationNotAvailableError extends ApiError {
  constructor(readonly operation: string) {
    super(404, messages.operationNotAvailable(operation), `not available in Kiroku: ${operation}`);
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

/** 409: a value of a NoDuplication column that another record holds; the column's own message if it has one. */
export class DuplicatedValueError extends ApiError {
  constructor(label: string, messageWhenDuplicated?: string) {
    const message = messageWhenDuplicated ? messageWhenDuplicated : messages.duplicated(label);
    super(409, message, `duplicated value of ${label}`);
  }
}

/** 422 `Please enter within {0} characters.`: a value longer than its column's MaxLength. */
export class TooLongTextError extends ApiError {
  constructor(columnName: string, maxLength: number) {
    super(422, messages.tooLongText(maxLength), `${columnName} is longer than ${maxLength} characters`);
  }
}

/** 422 with the column's RegexValidationMessage: a value its ServerRegexValidation does not match. */
export class NotMatchRegexError extends ApiError {
  constructor(columnName: string, message: string) {
    super(422, message, `${columnName} does not match its ServerRegexValidation`);
  }
}

/**
 * A conditional write found the item changed since it was read (its Ver, a parent's ParentId) or lost a
 * transaction conflict. The domain re-reads and re-applies (lib/storage/retry.ts); only when it keeps losing
 * does the caller see this 409, never a 404 for an item that exists.
 */
export class ConcurrentChangeError extends ApiError {
  constructor(reason: string) {
    super(409, messages.concurrentChange, reason);
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

/** 429: a login id refused for a while after repeated failed logins (lib/accounts/login-throttle.ts). */
export class LoginThrottledError extends ApiError {
  constructor(loginId: string, lockedUntil: number) {
    super(
      429,
      messages.loginThrottled,
      `login id ${loginId} is locked until ${new Date(lockedUntil).toISOString()}`,
    );
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

/** A multipart part header the upload cannot read: the client's error, named in the answer. */
export class BadPartHeaderError extends ApiError {
  constructor(header: string, problem: string) {
    super(400, messages.badPartHeader(header, problem), `part header ${header}: ${problem}`, 400, [
      { Property: header, Problem: problem },
    ]);
  }
}
