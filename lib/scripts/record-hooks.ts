import { callerZone } from '../accounts/caller-zone';
import { type ItemRecord, itemTitleOf } from '../items/model';
import { noScripts, type RecordScripts } from '../items/record-scripts';
import { logger } from '../log';
import { queueScriptSends, scriptRunId } from '../notifications/script-notices';
import type { Site } from '../sites/model';
import type { Condition } from '../sites/site-scripts';
import { ServerScriptFailure, ServerScriptReadOnly, ServerScriptRefusal } from './errors';
import { applyModel } from './model';
import {
  MAX_SCRIPT_DEPTH,
  RequestScripts,
  type RunOutcome,
  type ScriptRequest,
  type ScriptSend,
} from './runner';
import { scriptModel } from './script-model';

/**
 * The server scripts of one request around the record APIs (CONTRACT section 8). Before conditions may
 * change the record and refuse it; After conditions cannot undo the save, so their failures are only
 * logged; WhenloadingRecord changes the record as answered, never as stored. What the scripts send through
 * `notifications`, and what a Before condition writes through `items` (CONTRACT 13's departure), waits for
 * their run's effects to stand: a Before condition's only until the save is applied (the After step that
 * follows it), and a refused or failed save drops them; an After condition's and WhenloadingRecord's sends
 * go once their run has succeeded, their writes at once.
 *
 * A write a script makes through `items` runs the target site's scripts with `recordScripts` again, one
 * level deeper (`nesting`); from depth 10 it runs none.
 */
export function recordScripts(request: ScriptRequest): RecordScripts {
  if ((request.nesting?.depth ?? 0) >= MAX_SCRIPT_DEPTH) return noScripts;
  const { principal } = request;
  const zone = callerZone(principal);
  const scripts = new RequestScripts(request, recordScripts);
  /** The Before conditions' sends and writes, held until the save they belong to is applied. */
  let held: ScriptSend[] = [];
  let heldWrites: (() => Promise<void>)[] = [];
  const hold = (write: () => Promise<void>) => {
    heldWrites.push(write);
  };

  /** A save is applied: the writes its Before condition made run now, in their order. */
  const release = async (site: Site, recordId: number) => {
    const writes = heldWrites;
    heldWrites = [];
    for (const write of writes) {
      // The save stands whatever happens here: a held write that fails is logged, as an After one's is.
      await write().catch((error: unknown) =>
        logger.error('a server script write held for its save failed', {
          siteId: site.siteId,
          recordId,
          error,
        }),
      );
    }
  };

  /** `recordId` undefined: a bulk condition's sends, which belong to the site. */
  const queue = async (site: Site, recordId: number | undefined, sends: readonly ScriptSend[]) => {
    if (sends.length === 0) return;
    const origin = { tenantId: principal.tenantId, siteId: site.siteId, recordId, userName: principal.name };
    // The save stands whatever happens here: a send that cannot be queued is logged, never the request's failure.
    await queueScriptSends(origin, scriptRunId(), sends).catch((error: unknown) =>
      logger.error('queueing what a server script sent failed', { siteId: site.siteId, recordId, error }),
    );
  };

  /** The record as the scripts left it, with their sends; a refusal or a failure stops the request. */
  const changed = async (
    condition: Condition,
    site: Site,
    record: ItemRecord,
    saved?: ItemRecord,
    holding?: typeof hold,
  ) => {
    const model = scriptModel(site, record, zone);
    const shown = saved && scriptModel(site, saved, zone);
    const shownRecord = saved ?? (condition === 'BeforeCreate' ? undefined : record);
    const title = shownRecord ? itemTitleOf(shownRecord) : '';
    const outcome = await scripts.run(condition, site, model, shown, holding, title);
    if (!outcome) return { record, sends: [], readOnly: false };
    const done = finished(outcome);
    if (done.error !== undefined) throw new ServerScriptRefusal(done.error, done.script);
    const applied = applyModel(site, record, model, done.model, done.script, principal, zone);
    if (applied.dropped.length > 0) {
      const where = { siteId: site.siteId, condition, script: done.script, fields: applied.dropped };
      logger.info('server script wrote fields a script cannot change; dropped', where);
    }
    return { record: applied.record, sends: done.sends, readOnly: applied.readOnly, script: done.script };
  };

  return {
    before: async (condition, site, record, saved) => {
      // A save tried again (a lost race) or the next record of an import starts afresh: what an earlier
      // Before run held belonged to a save that was not applied.
      held = [];
      heldWrites = [];
      const after = await changed(condition, site, record, saved, hold);
      // model.ReadOnly: the record is read-only for the rest of the request, so the save it precedes is refused.
      if (after.readOnly) throw new ServerScriptReadOnly(record.recordId, after.script ?? '');
      held.push(...after.sends);
      // A record on its way out keeps what it was; only a refusal or a failure counts.
      return condition === 'BeforeDelete' ? record : after.record;
    },
    after: async (condition, site, record, saved) => {
      const before = held;
      held = [];
      await release(site, record.recordId);
      await queue(site, record.recordId, before);
      const outcome = await scripts.run(
        condition,
        site,
        scriptModel(site, record, zone),
        saved && scriptModel(site, saved, zone),
        undefined,
        itemTitleOf(condition === 'AfterDelete' ? (saved ?? record) : record),
      );
      if (outcome?.kind === 'done') await queue(site, record.recordId, outcome.sends);
    },
    beforeBulk: async (condition, site) => {
      held = [];
      heldWrites = [];
      const outcome = await scripts.run(condition, site, {}, undefined, hold);
      if (!outcome) return;
      const done = finished(outcome);
      // A departure: the reference does not look at context.Error here, so its bulk delete goes on.
      if (done.error !== undefined) throw new ServerScriptRefusal(done.error, done.script);
      held.push(...done.sends);
    },
    afterBulk: async (condition, site) => {
      const before = held;
      held = [];
      await release(site, 0);
      await queue(site, undefined, before);
      const outcome = await scripts.run(condition, site, {});
      if (outcome?.kind === 'done') await queue(site, undefined, outcome.sends);
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
