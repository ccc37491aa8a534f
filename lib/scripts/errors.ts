import { ApiError } from '../errors';
import { messages } from '../messages';

/** `context.Error(message)` in a Before condition: the caller's 400 with the script's message, nothing saved. */
export class ServerScriptRefusal extends ApiError {
  constructor(message: string, script: string) {
    super(400, message, `refused by server script ${script}`);
  }
}

/**
 * `model.ReadOnly = true` in a Before condition: the record is read-only for the request, so its save (or
 * delete) is refused, as the reference's validators refuse a read-only record.
 */
export class ServerScriptReadOnly extends ApiError {
  constructor(recordId: number, script: string) {
    super(403, messages.hasNotPermission, `server script ${script} made record ${recordId} read-only`);
  }
}

/** A script wrote a model field that does not exist, cannot be written, or with a value of the wrong type. */
export class ServerScriptModelError extends ApiError {
  constructor(field: string, problem: string, script: string) {
    super(
      400,
      `${messages.badRequest} model.${field}: ${problem}`,
      `server script ${script}: model.${field}`,
    );
  }
}

/** A script threw, or ran out of time or memory: the generic 500; the log names the script. */
export class ServerScriptFailure extends ApiError {
  constructor(reason: string) {
    super(500, messages.internalServerError, reason);
  }
}
