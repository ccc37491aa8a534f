import type { HostCallTable, ScriptCallContext } from '../host-calls';
import { groupIds, tenantTitle } from '../script-context';

/** The members of `context` that need a read, asked only when a script reads them. */
export function contextCalls(context: ScriptCallContext): HostCallTable {
  return {
    'context.TenantTitle': () => tenantTitle(context.principal),
    'context.Groups': () => groupIds(context.principal),
  };
}
