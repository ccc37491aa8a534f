import { callerLanguage } from '../accounts/caller-language';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { ForbiddenError, InvalidJsonError, MultipleMatchesError, UpsertKeyError } from '../errors';
import { discardingOnFailure } from '../files/inline-files';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import type { Site } from '../sites/model';
import { Permission, siteInTenant, sitePermission } from '../sites/permissions';
import { reserveItemIds } from '../sites/store';
import type { ItemRecord } from './model';
import { checkedWrite, tableDesign } from './record-design';
import { compileViewFor } from './record-get';
import { canOnRecord } from './record-permissions';
import { type RecordWrite, writeRecords } from './record-repository';
import { noScripts, type RecordScripts } from './record-scripts';
import { selectAll } from './record-select';
import { requireDistinctValues } from './record-unique';
import { changedRecord, checkedInput, newRecord, requireRecordHolder, requireUnlocked } from './records';
import type { RecordWriteInput } from './schemas';
import { keysMatch, type Match, requireWriter } from './upsert';
import type { CompiledView } from './view/view';

/**
 * `bulkupsert` (reference/pleasanter-items-api.md 7): upsert's Keys (lib/items/upsert.ts) for each item of
 * Data in order, a later item matching what an earlier one created or changed. Unlike the reference, which
 * writes item by item and stops at the first failure, every item is checked (its fields, its keys, its
 * match, the lock of what it would update, its Before script) before any is written (CONTRACT 5.1).
 */

export interface BulkUpsertInput {
  readonly Keys?: readonly string[] | null;
  readonly View?: Record<string, unknown> | null;
  readonly KeyNotFoundCreate?: boolean;
  readonly Data?: readonly RecordWriteInput[];
}

export async function bulkUpsert(
  principal: Principal,
  siteId: number,
  input: BulkUpsertInput,
  scripts: RecordScripts = noScripts,
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  requireRecordHolder(site);
  await requireWriter(principal, site);
  if (!input.Data) throw new InvalidJsonError('bulkupsert without Data');
  const keys = input.Keys ?? [];
  const bits = await sitePermission(principal, site);
  const view = compileViewFor(principal, site, input.View);
  // Every item's fields and keys, before anything is read or written.
  const matchers = input.Data.map((item) => {
    checkedInput(principal, site, item);
    return keys.length > 0 ? keysMatch(principal, site, keys, item).match : undefined;
  });
  if (keys.length > 0 && input.Data.length === 0) throw new UpsertKeyError(keys);
  const limits = await useApiCall(site);
  // The records as they stand after each item, by id: a later item may match what an earlier one
  // created or changed, as the reference processes items in order.
  const current = new Map<number, ItemRecord>();
  if (keys.length > 0)
    for (const record of await selectAll([site], view)) current.set(record.recordId, record);
  const time = now();
  // Ids of the sequence have gaps anyway: reserving one per item costs one write.
  const nextId = await reserveItemIds(input.Data.length || 1);
  const writes: RecordWrite[] = [];
  const plan: BulkPlan = {
    principal,
    site,
    data: input.Data,
    create: input.KeyNotFoundCreate !== false,
    mayCreate: (bits & Permission.Create) !== 0,
    view,
    matchers,
    current,
    firstId: nextId,
    time,
    scripts,
  };
  const created = await discardingOnFailure(
    () => writes.flatMap((write) => write.extra),
    () => planAndWrite(plan, writes),
  );
  const message = messages.bulkUpserted(site.title, created, writes.length - created);
  return { id: siteId, message, ...limits };
}

interface BulkPlan {
  readonly principal: Principal;
  readonly site: Site;
  readonly data: readonly RecordWriteInput[];
  /** KeyNotFoundCreate: an item that matches nothing is created. */
  readonly create: boolean;
  /** Create on the site. */
  readonly mayCreate: boolean;
  readonly view: CompiledView;
  readonly matchers: readonly (Match | undefined)[];
  /** The records as they stand after each item, by id. */
  readonly current: Map<number, ItemRecord>;
  readonly firstId: number;
  readonly time: number;
  readonly scripts: RecordScripts;
}

/**
 * bulkupsert's items in order, each checked into `writes` with its Before script (BeforeUpdate or
 * BeforeCreate, whose model changes are saved), then written, then each item's After script; the count
 * of records created. Every Before script runs before anything is written, so that one refusing an item
 * refuses the request with nothing written (CONTRACT 5.1: every item is checked before any is written).
 */
async function planAndWrite(plan: BulkPlan, writes: RecordWrite[]): Promise<number> {
  const { principal, site, view, current, time, scripts } = plan;
  let nextId = plan.firstId;
  let created = 0;
  for (const [index, item] of plan.data.entries()) {
    const matcher = plan.matchers[index];
    const found = matcher
      ? [...current.values()].filter((record) => view.filter(record) && matcher(record))
      : [];
    if (found.length > 1) throw new MultipleMatchesError(`item ${index + 1}: ${found.length} records match`);
    const [before] = found;
    if (before) {
      if (!(await canOnRecord(principal, site, before, Permission.Update)))
        throw new ForbiddenError(`item ${index + 1}: no Update`);
      await requireUnlocked(principal, before);
      const { after: draft, extra } = await changedRecord(principal, site, before, item, time);
      const after = await scripts.before('BeforeUpdate', site, draft, before);
      writes.push({
        before,
        after,
        extra: [...extra, ...(await checkedWrite(principal, site, before, after))],
      });
      current.set(after.recordId, after);
    } else if (plan.create) {
      if (!plan.mayCreate) throw new ForbiddenError(`item ${index + 1}: no Create`);
      const { record: draft, extra } = await newRecord(principal, site, item, nextId++, time);
      const record = await scripts.before('BeforeCreate', site, draft);
      writes.push({
        after: record,
        extra: [...extra, ...(await checkedWrite(principal, site, undefined, record))],
      });
      current.set(record.recordId, record);
      created++;
    }
  }
  const finals = new Map(writes.map(({ after }) => [after.recordId, after]));
  requireDistinctValues(tableDesign(site, callerLanguage(principal)).unique, [...finals.values()]);
  await writeRecords(site, writes);
  for (const { before, after } of writes)
    await scripts.after(before ? 'AfterUpdate' : 'AfterCreate', site, after, before);
  return created;
}
