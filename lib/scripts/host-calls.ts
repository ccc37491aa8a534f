import type { Principal } from '../accounts/principal';
import type { RecordScripts } from '../items/record-scripts';
import type { Site } from '../sites/model';
import { httpClientCalls } from './calls/http-client';
import { itemReadCalls } from './calls/item-reads';
import { logCalls } from './calls/logs';
import { utilityCalls } from './calls/utilities';
import type { HostCall } from './job';

/**
 * The host's side of the scripts' globals (CONTRACT 13): each call a script makes (`items.Create(…)`
 * crosses as the call `items.Create` with its arguments) is answered here by the table of the module that
 * owns it, under lib/scripts/calls/. The script waits for the answer (lib/scripts/script-worker.ts), so a
 * call may read, write or ask an outside service, and its effect is there for the script's next statement.
 */

/** What a host call knows of the run that makes it. */
export interface ScriptCallContext {
  /** The script's user: every call is checked as this user's own request would be. */
  readonly principal: Principal;
  /** The site whose scripts run; undefined for a background (scheduled) script, which has none. */
  readonly site: Site | undefined;
  /** The condition that runs, `context.Condition`'s name (BackgroundServerScript for a scheduled one). */
  readonly condition: string;
  /** `context.ServerScript.ScriptDepth`: 0 for a caller's request, 1 more for each nested `items.*` write. */
  readonly depth: number;
  /** Epoch ms at which the run's time runs out: a call that waits (an outside request) ends by then. */
  readonly deadline: number;
  /**
   * A Before condition's writes wait for the save they precede (CONTRACT 13's departure): `hold` keeps a
   * write to run once that save is applied, and drops it with a refused or failed save. Undefined in every
   * other condition, where a write happens at once.
   */
  readonly hold: ((write: () => Promise<void>) => void) | undefined;
  /**
   * The scripts a nested write runs: the target site's own, at depth + 1, sharing this run's UserData;
   * none from depth 10 (the write happens without them).
   */
  nested(action: string, id: number): RecordScripts;
  /** The structured log's fields naming the script that runs (site, condition, script). */
  readonly where: Readonly<Record<string, unknown>>;
}

/** A module's calls by name; a call's arguments are JSON values as the script passed them. */
export type HostCallTable = Readonly<Record<string, (...args: unknown[]) => Promise<unknown>>>;

/** The answer to every call a run may make, each by its module's table. */
export function hostCalls(context: ScriptCallContext): (call: HostCall) => Promise<unknown> {
  const table: HostCallTable = {
    ...itemReadCalls(context),
    ...httpClientCalls(context),
    ...logCalls(context),
    ...utilityCalls(context),
  };
  return (call) => {
    const answer = Object.hasOwn(table, call.name) ? table[call.name] : undefined;
    if (!answer) return Promise.reject(new Error(`no host call ${call.name}`));
    return answer(...call.args);
  };
}
