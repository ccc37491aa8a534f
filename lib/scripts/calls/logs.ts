import { logger } from '../../log';
import type { HostCallTable, ScriptCallContext } from '../host-calls';

/**
 * `logs.*` (reference/pleasanter-script-objects.md 5): each line goes to the structured log at once, with
 * the script's site, condition and name, so that it stays even when the script then fails. The type is the
 * reference's SysLogTypes; a number it does not know is Info, as there.
 */

const LOG_TYPES: Readonly<
  Record<number, { readonly name: string; readonly level: 'info' | 'warn' | 'error' }>
> = {
  10: { name: 'Info', level: 'info' },
  50: { name: 'Warning', level: 'warn' },
  60: { name: 'UserError', level: 'warn' },
  80: { name: 'SystemError', level: 'error' },
  90: { name: 'Exception', level: 'error' },
};
const INFO = { name: 'Info', level: 'info' } as const;

export function logCalls(context: ScriptCallContext): HostCallTable {
  return {
    'logs.Log': async (type, message, method) => {
      const { name, level } = (typeof type === 'number' && LOG_TYPES[type]) || INFO;
      logger[level]('server script log', {
        ...context.where,
        logType: name,
        ...(method ? { method: String(method) } : {}),
        message: String(message ?? ''),
      });
      return true;
    },
  };
}
