import { callerZone } from '../accounts/caller-zone';
import type { ItemRecord } from '../items/model';
import type { RecordScripts } from '../items/record-scripts';
import type { Site } from '../sites/model';
import type { Condition } from '../sites/site-scripts';
import { ServerScriptFailure, ServerScriptRefusal } from './errors';
import { closestSiteModel, getItems, getSiteModel } from './lookups';
import { applyModel, toModel } from './model';
import { type LookupKey, RequestScripts, type RunOutcome, type ScriptRequest } from './runner';

/**
 * The server scripts of one request around the record APIs (CONTRACT section 8). Before conditions may
 * change the record and refuse it; After conditions cannot undo the save, so their failures are only
 * logged; WhenloadingRecord changes the record as answered, never as stored.
 */
export function recordScripts(request: ScriptRequest): RecordScripts {
  const { principal } = request;
  const zone = callerZone(principal);
  const lookup = (key: LookupKey) => {
    if (key.kind === 'GetClosestSite') return closestSiteModel(principal, key.originId, key.name);
    return key.kind === 'Get' ? getItems(principal, key.id) : getSiteModel(principal, key.id);
  };
  const scripts = new RequestScripts(request, lookup);

  /** The record as the scripts left it; a refusal or a failure stops the request. */
  const changed = async (condition: Condition, site: Site, record: ItemRecord, saved?: ItemRecord) => {
    const model = toModel(site, record, zone);
    const outcome = await scripts.run(condition, site, model, saved && toModel(site, saved, zone));
    if (!outcome) return record;
    const done = finished(outcome);
    if (done.error !== undefined) throw new ServerScriptRefusal(done.error, done.script);
    return applyModel(record, model, done.model, done.script, zone);
  };

  return {
    before: async (condition, site, record, saved) => {
      const after = await changed(condition, site, record, saved);
      // A record on its way out keeps what it was; only a refusal or a failure counts.
      return condition === 'BeforeDelete' ? record : after;
    },
    after: async (condition, site, record, saved) => {
      await scripts.run(condition, site, toModel(site, record, zone), saved && toModel(site, saved, zone));
    },
    loading: (site, record) => changed('WhenloadingRecord', site, record),
  };
}

function finished(outcome: RunOutcome): Extract<RunOutcome, { kind: 'done' }> {
  if (outcome.kind === 'failed') throw new ServerScriptFailure(outcome.reason);
  return outcome;
}
