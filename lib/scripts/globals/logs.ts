/**
 * `logs` (reference/pleasanter-script-objects.md 5): LogInfo, LogWarning, LogUserError, LogSystemError and
 * LogException(message, method?, console?, sysLogs?), and Log(type, …) with the type's number; each answers
 * true. The reference writes `console` lines to the page's console and `sysLogs` lines to its SysLogs
 * table; in Kiroku both are the structured log, so a line is written once when either is on (both are by
 * default) and not at all when both are false. A host call each (lib/scripts/calls/logs.ts). A part of
 * the prelude (lib/scripts/prelude.ts).
 */
export const LOGS = `{
  const on = (flag) => flag === undefined || flag === null || Boolean(flag);
  const log = (type, message, method, console, sysLogs) => {
    if (!on(console) && !on(sysLogs)) return true;
    return call('logs.Log', type, text(message), text(method)) === true;
  };
  const named = { LogInfo: 10, LogWarning: 50, LogUserError: 60, LogSystemError: 80, LogException: 90 };
  for (const name of keys(named)) {
    member('logs', name, (message, method, console, sysLogs) => log(named[name], message, method, console, sysLogs));
  }
  member('logs', 'Log', (type, message, method, console, sysLogs) => log(Number(type), message, method, console, sysLogs));
}`;
