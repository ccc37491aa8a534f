import { callerZone } from '../accounts/caller-zone';
import type { ItemRecord } from '../items/model';
import type { RecordScripts } from '../items/record-scripts';
import { logger } from '../log';
import { queueScriptSends, scriptRunId } from '../notifications/script-notices';
import type { Site } from '../sites/model';
import type { Condition } from '../sites/site-scripts';
import { ServerScriptFailure, ServerScriptRefusal } from './errors';
import { closestSiteModel, getItems, getSiteModel } from './lookups';
import { applyModel, toModel } from './model';
import {
  type LookupKey,
  RequestScripts,
  type RunOutcome,
  type ScriptRequest,
  type ScriptSend,
} from './runner';

/**
 * The server scripts of one request around the record APIs (CONTRACT section 8). Before conditions may
 * change the record and refuse it; After conditions cannot undo the save, so their failures are only
 * logged; WhenloadingRecord changes the record as answered, never as stored. What the scripts send through
 * `notifications` is queued once their run's effects stand: a Before condition's sends only when the save
 * is applied (the After step that follows it), an After condition's and WhenloadingRecord's when their run
 * has succeeded.
 */
export function recordScripts(request: ScriptRequest): RecordScripts {
  const { principal } = request;
  const zone = callerZone(principal);
  const lookup = (key: LookupKey) => {
    if (key.kind === 'GetClosestSite') return closestSiteModel(principal, key.originId, key.name);
    return key.kind === 'Get' ? getItems(principal, key.id) : getSiteModel(principal, key.id);
  };
  const scripts = new RequestScripts(request, lookup);
  /** The Before conditions' sends, held until the save they belong to is applied. */
  let held: ScriptSend[] = [];

  const queue = async (site: Site, recordId: number, sends: readonly ScriptSend[]) => {
    if (sends.length === 0) return;
    const origin = { tenantId: principal.tenantId, siteId: site.siteId, recordId, userName: principal.name };
    // The save stands whatever happens here: a send that cannot be queued is logged, never the request's failure.
    await queueScriptSends(origin, scriptRunId(), sends).catch((error: unknown) =>
      logger.error('queueing what a server script sent failed', { siteId: site.siteId, recordId, error }),
    );
  };

  /** The record as the scripts left it, with their sends; a refusal or a failure stops the request. */
  const changed = async (condition: Condition, site: Site, record: ItemRecord, saved?: ItemRecord) => {
    const model = toModel(site, record, zone);
    const outcome = await scripts.run(condition, site, model, saved && toModel(site, saved, zone));
    if (!outcome) return { record, sends: [] };
    const done = finished(outcome);
    if (done.error !== undefined) throw new ServerScriptRefusal(done.error, done.script);
    return { record: applyModel(record, model, done.model, done.script, zone), sends: done.sends };
  };

  return {
    before: async (condition, site, record, saved) => {
      const after = await changed(condition, site, record, saved);
      held.push(...after.sends);
      // A record on its way out keeps what it was; only a refusal or a failure counts.
      return condition === 'BeforeDelete' ? record : after.record;
    },
    after: async (condition, site, record, saved) => {
      const before = held;
      held = [];
      await queue(site, record.recordId, before);
      const outcome = await scripts.run(
        condition,
        site,
        toModel(site, record, zone),
        saved && toModel(site, saved, zone),
      );
      if (outcome?.kind === 'done') await queue(site, record.recordId, outcome.sends);
    },
    loading: async (site, record) => {
      const loaded = await changed('WhenloadingRecord', site, record);
      await queue(site, record.recordId, loaded.sends);
      return loaded.record;
    },
  };
}

function finished(outcome: RunOutcome): Extract<RunOutcome, { kind: 'done' }> {
  if (outcome.kind === 'failed') throw new ServerScriptFailure(outcome.reason);
  return outcome;
}
