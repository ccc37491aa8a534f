import type { ServerScript } from '../sites/site-scripts';
import type { Outcome } from './sandbox';

/** What one script runs as, and how it is named in the log. */

export function nameOf(script: ServerScript): string {
  return script.Name || script.Title || `#${script.Id}`;
}

/**
 * The code one script runs as: the Shared scripts' bodies first, then its own; Functionalize makes it a
 * function (so `return` works), TryCatch catches and logs what it throws. The block keeps each script's
 * `let` and `const` to itself, so two scripts, or the Shared part run before each, never collide.
 */
export function wrap(script: ServerScript, shared: string): string {
  let code = `${shared}\n${script.Body ?? ''}`;
  if (script.Functionalize) code = `(function () {\n${code}\n})();`;
  if (script.TryCatch) code = `try {\n${code}\n} catch (error) { __kirokuCaught(error); }`;
  return `{\n${code}\n}`;
}

export function describe(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'thrown':
      return `threw ${outcome.message}`;
    case 'timeout':
      return 'ran out of time';
    case 'memory':
      return 'ran out of memory';
    case 'crashed':
      return `stopped the engine (${outcome.message})`;
    default:
      return outcome.kind;
  }
}
