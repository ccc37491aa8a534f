import { principalOf } from '../../accounts/authentication';
import type { Principal } from '../../accounts/principal';
import { getTenant, getUser } from '../../accounts/repository';
import { now } from '../../clock';
import { settings } from '../../config/settings';
import { logger } from '../../log';
import { queueScriptSends, scriptRunId } from '../../notifications/script-notices';
import type { ServerScript } from '../../sites/site-scripts';
import type { hostCalls } from '../host-calls';
import { recordScripts } from '../record-hooks';
import { BACKGROUND, RequestScripts, type ScriptRequest } from '../runner';
import { backgroundContextOf } from '../script-context';
import type { BackgroundScript } from './config';
import { nextScriptRun } from './schedule';
import { claimRun, dueRuns, getScripts, type RunRow, recordRun } from './store';

/**
 * The scheduled run (functions/background-scripts.ts, every minute): each script whose time has come runs
 * once, as its execution user, with the Shared scripts before it, in condition BackgroundServerScript with
 * no site, as the reference's BackgroundServerScriptJob. A run is claimed before it starts (store.ts
 * claimRun), so two invocations never run one due time twice; a due time missed while nothing ran (a
 * deployment, the setting off) runs once when next looked at, as Quartz's misfire rule fires once.
 */

/** Script.ServerScript and Script.BackgroundServerScript, as the reference asks both. */
export function backgroundEnabled(): boolean {
  const { ServerScript, BackgroundServerScript } = settings().Script;
  return ServerScript && BackgroundServerScript === true;
}

/** A script that runs on its schedules: enabled and not Shared (a Shared one only runs before others). */
export const scheduled = (script: BackgroundScript) => !script.Disabled && !script.Shared;

export interface DueOptions {
  /** Epoch ms (Date.now) after which no further run is claimed: they are left for the next invocation. */
  readonly stopClaimingAt?: number;
  /** The host calls (tests inject faults through it). */
  readonly answering?: typeof hostCalls;
}

/** Runs every script due now; the number that ran. */
export async function runDueScripts(options: DueOptions = {}): Promise<number> {
  if (!backgroundEnabled()) return 0;
  const at = now();
  let ran = 0;
  for (const row of await dueRuns(at)) {
    if (options.stopClaimingAt !== undefined && Date.now() >= options.stopClaimingAt) break;
    const { scripts } = await getScripts(row.tenantId);
    const script = scripts.find((known) => known.Id === row.scriptId);
    const next =
      script && scheduled(script) ? nextScriptRun(script, at, settings().Service.TimeZoneDefault) : undefined;
    if (!(await claimRun(row, next))) continue;
    if (!script || !scheduled(script)) {
      await recordRun(row, 'Skipped', 'the script is removed, disabled or Shared');
      continue;
    }
    await runClaimed(row, script, scripts, options.answering);
    ran++;
  }
  return ran;
}

async function runClaimed(
  row: RunRow,
  script: BackgroundScript,
  scripts: readonly BackgroundScript[],
  answering: typeof hostCalls | undefined,
): Promise<void> {
  const where = { tenantId: row.tenantId, scriptId: row.scriptId };
  const principal = await executionUser(row.tenantId, script.UserId);
  if (!principal) {
    const message = `the execution user ${script.UserId} is not an enabled user of tenant ${row.tenantId}`;
    logger.warn('background server script skipped', { ...where, reason: message });
    await recordRun(row, 'Skipped', message);
    return;
  }
  const shared = scripts
    .filter((known) => known.Shared && !known.Disabled)
    .map((known) => known.Body)
    .join('\n');
  const request: ScriptRequest = {
    principal,
    event: { requestContext: { http: { method: '' } } },
    action: '',
    id: 0,
  };
  logger.info('background server script starts', where);
  const outcome = await new RequestScripts(request, recordScripts, answering).runBackground(
    script as ServerScript,
    shared,
    {
      ...backgroundContextOf(principal),
      Condition: BACKGROUND,
      ServerScript: { ScriptDepth: 0, OnTesting: false },
    },
  );
  if (outcome.kind === 'failed') {
    await recordRun(row, 'Failed', outcome.reason);
    return;
  }
  if (outcome.sends.length > 0) {
    const origin = { tenantId: row.tenantId, siteId: 0, userName: principal.name };
    await queueScriptSends(origin, scriptRunId(), outcome.sends);
  }
  await recordRun(row, 'Succeeded', outcome.error ?? '');
  logger.info('background server script ended', where);
}

/** The script's user as a request of theirs would be: an enabled user of the tenant, else undefined. */
export async function executionUser(tenantId: number, userId: number): Promise<Principal | undefined> {
  const user = userId > 0 ? await getUser(userId) : undefined;
  if (!user || user.tenantId !== tenantId || user.disabled) return undefined;
  const timeZone = user.timeZone ?? (await getTenant(tenantId))?.timeZone;
  return { ...principalOf(user, 'apiKey'), ...(timeZone && { timeZone }) };
}
