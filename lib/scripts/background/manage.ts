import { callerZone } from '../../accounts/caller-zone';
import type { Principal } from '../../accounts/principal';
import { getUser } from '../../accounts/repository';
import { now } from '../../clock';
import { settings } from '../../config/settings';
import { BadRequestError, ForbiddenError, NotFoundError, OutOfBoundsError } from '../../errors';
import type { Reading } from '../../results';
import { formatLocal } from '../../zoned-time';
import { backgroundScriptErrors, type ScriptError } from '../script-errors';
import { type BackgroundScript, numbered } from './config';
import { backgroundEnabled, scheduled } from './run';
import { nextRun, nextScriptRun } from './schedule';
import type { RunInput, UpdateInput } from './schemas';
import { deleteRun, getScripts, putScripts, runsOf, setNextRun } from './store';

/**
 * What a tenant's privileged users do with its background scripts (the reference: "only privileged users
 * can configure it", Tenant management → Server script): read them with their runs and last failures,
 * replace the list, and run one now.
 */

/** The list as one item beside the tenant: it stays well inside DynamoDB's 400 KB. */
export const MAX_TOTAL_BYTES = 350 * 1024;

function requirePrivileged(principal: Principal): void {
  if (!principal.privileged)
    throw new ForbiddenError(`user ${principal.userId} is not privileged: background scripts are theirs`);
}

export async function readBackgroundScripts(principal: Principal): Promise<Reading> {
  requirePrivileged(principal);
  const { tenantId } = principal;
  const zone = callerZone(principal);
  const [{ scripts }, runs, errors] = await Promise.all([
    getScripts(tenantId),
    runsOf(tenantId),
    backgroundScriptErrors(tenantId),
  ]);
  const time = (at: number | undefined) => (at === undefined ? undefined : formatLocal(at, zone));
  return {
    response: {
      Enabled: backgroundEnabled(),
      BackgroundServerScripts: { TenantId: tenantId, Scripts: scripts },
      Runs: runs
        .filter((run) => scripts.some((script) => script.Id === run.scriptId))
        .map((run) => ({
          Id: run.scriptId,
          ...(run.nextRunAt !== undefined && { NextRunTime: time(run.nextRunAt) }),
          ...(run.lastRunAt !== undefined && { LastRunTime: time(run.lastRunAt) }),
          ...(run.lastStatus && { LastStatus: run.lastStatus }),
          ...(run.lastMessage && { LastMessage: run.lastMessage }),
        })),
      Errors: errorViews(errors, zone),
    },
  };
}

export function errorViews(errors: readonly ScriptError[], zone: string) {
  return errors.map((error) => ({
    Time: formatLocal(error.at, zone),
    SiteId: error.siteId,
    Condition: error.condition,
    Script: error.script,
    Reason: error.reason,
  }));
}

/** Replaces the tenant's list; each scheduled script's next run is set from its schedules. */
export async function updateBackgroundScripts(principal: Principal, input: UpdateInput): Promise<number> {
  requirePrivileged(principal);
  const { tenantId } = principal;
  const scripts = numbered(input.BackgroundServerScripts.Scripts);
  await check(tenantId, scripts);
  const json = JSON.stringify(scripts);
  if (Buffer.byteLength(json) > MAX_TOTAL_BYTES)
    throw new OutOfBoundsError('BackgroundServerScripts', `at most ${MAX_TOTAL_BYTES} bytes together`);
  const before = await getScripts(tenantId);
  await putScripts(tenantId, json, before.version);
  const at = now();
  const zone = settings().Service.TimeZoneDefault;
  for (const script of scripts) {
    const id = script.Id as number;
    if (scheduled(script)) await setNextRun(tenantId, id, nextScriptRun(script, at, zone));
    else await deleteRun(tenantId, id);
  }
  for (const gone of before.scripts.filter((old) => !scripts.some((script) => script.Id === old.Id)))
    await deleteRun(tenantId, gone.Id as number);
  return tenantId;
}

/** What the reference's validators check, and what would make a schedule a silent no-op. */
async function check(tenantId: number, scripts: readonly BackgroundScript[]): Promise<void> {
  const seen = new Set<number>();
  const zone = settings().Service.TimeZoneDefault;
  for (const [index, script] of scripts.entries()) {
    const path = `BackgroundServerScripts.Scripts[${index}]`;
    if (seen.has(script.Id as number))
      throw new BadRequestError(`Id ${script.Id} is given twice`, `${path}.Id`);
    seen.add(script.Id as number);
    if (scheduled(script)) {
      const user = script.UserId > 0 ? await getUser(script.UserId) : undefined;
      if (!user || user.tenantId !== tenantId || user.disabled)
        throw new BadRequestError(
          `the execution user ${script.UserId} is not an enabled user of the tenant`,
          `${path}.UserId`,
        );
    }
    for (const [at, schedule] of script.backgoundSchedules.entries()) {
      const where = `${path}.backgoundSchedules[${at}]`;
      if (schedule.ScheduleType === 'onlyonce') {
        // A past time is kept (the reference keeps it), but it must be a time.
        if (nextRun(schedule, Number.NEGATIVE_INFINITY, zone) === undefined)
          throw new BadRequestError(
            'a date and time such as 2026/12/01 09:00',
            `${where}.ScheduleOnlyOnceTime`,
          );
      } else if (nextRun(schedule, now(), zone) === undefined) {
        throw new BadRequestError('the schedule never runs: no listed day is in a listed month', where);
      }
    }
  }
}

/**
 * "Run now": the script runs at the scheduled handler's next minute, as the reference hands it to Quartz
 * to start at once. Refused for a Shared script (the reference disables the button), a disabled one, and
 * while the settings keep background scripts from running.
 */
export async function runBackgroundScriptNow(principal: Principal, input: RunInput): Promise<number> {
  requirePrivileged(principal);
  const { scripts } = await getScripts(principal.tenantId);
  const script = scripts.find((known) => known.Id === input.Id);
  if (!script) throw new NotFoundError(`no background script ${input.Id} in tenant ${principal.tenantId}`);
  if (script.Shared) throw new BadRequestError('a Shared script runs only before the others', 'Id');
  if (script.Disabled) throw new BadRequestError('the script is disabled', 'Id');
  if (!backgroundEnabled())
    throw new BadRequestError('background scripts are off (Script.BackgroundServerScript)', 'Id');
  await setNextRun(principal.tenantId, input.Id, now());
  return input.Id;
}
