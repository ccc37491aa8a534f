import { ApiError } from '../errors';
import { messages } from '../messages';

/** `context.Error(message)` in a Before condition: the caller's 400 with the script's message, nothing saved. */
export class ServerScriptRefusal extends ApiError {
  constructor(message: string, script: string) {
    super(400, message, `refused by server script ${script}`);
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
