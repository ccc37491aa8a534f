import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { ForbiddenError, InvalidJsonError, MultipleMatchesError, UpsertKeyError } from '../errors';
import { discardingOnFailure } from '../files/inline-files';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import type { Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant, sitePermission } from '../sites/permissions';
import { reserveItemIds } from '../sites/store';
import { retryOnConcurrentChange } from '../storage/retry';
import type { ItemRecord } from './model';
import { compileViewFor } from './record-get';
import { canOnRecord, grantedRecords, requireOnRecord } from './record-permissions';
import { type RecordWrite, writeRecords } from './record-repository';
import { noScripts, type RecordScripts } from './record-scripts';
import { selectAll } from './record-select';
import {
  applyUpdate,
  changedRecord,
  checkedInput,
  insertNewRecord,
  newRecord,
  requireRecordHolder,
  requireUnlocked,
} from './records';
import type { RecordWriteInput } from './schemas';
import { claimWrite, readClaim } from './upsert-claims';
import { type ColumnValue, columnsOf, idColumnName } from './view/columns';
import type { CompiledView } from './view/view';

/**
 * `upsert` and `bulkupsert` (reference/pleasanter-items-api.md 6, 7): Keys name columns whose values in
 * the body must equal a record's (on top of the View's filters, within the site, permissions aside):
 * one match is updated, none created, more than one refused. bulkupsert checks every item (its fields,
 * its keys, its match, the lock of what it would update) before it writes any (CONTRACT 5.1).
 */

type Match = (record: ItemRecord) => boolean;

/** The Keys of one body: their predicate, and the values it tests (a false Check key tests none). */
interface KeyMatch {
  readonly match: Match;
  readonly values: readonly (readonly [string, ColumnValue])[];
}

/** The Keys of one body; an invalid key list is the reference's 400 naming them. */
function keysMatch(
  principal: Principal,
  site: Site,
  keys: readonly string[],
  input: RecordWriteInput,
): KeyMatch {
  const columns = columnsOf(site);
  const { fields, people } = checkedInput(principal, site, input);
  const given = {
    recordId: Number(input[idColumnName(site)] ?? -1),
    title: input.Title,
    body: input.Body,
    status: input.Status,
    ...people,
    fields,
  } as unknown as ItemRecord;
  const invalid: string[] = [];
  const tests: Match[] = [];
  const values: [string, ColumnValue][] = [];
  for (const key of keys) {
    const column = columns.get(key);
    const value = column?.read(given);
    const missing =
      value === undefined || value === '' || (column?.name === idColumnName(site) && value === -1);
    if (!column || missing) {
      invalid.push(key);
      continue;
    }
    // A Check key that is false adds no filter, as in the reference.
    if (value === false) continue;
    tests.push((record) => column.read(record) === value);
    values.push([column.name, value]);
  }
  if (invalid.length > 0) throw new UpsertKeyError(invalid);
  return { match: (record) => tests.every((test) => test(record)), values };
}

/** Create or Update on the site, or Update on some record of it by the record's own rows. */
async function requireWriter(principal: Principal, site: Site): Promise<void> {
  const bits = await sitePermission(principal, site);
  if (
    (bits & (Permission.Create | Permission.Update)) === 0 &&
    (await grantedRecords(principal, site, Permission.Update)).length === 0
  ) {
    throw new ForbiddenError(`user ${principal.userId} may neither create nor update in site ${site.siteId}`);
  }
}

export async function upsert(
  principal: Principal,
  siteId: number,
  input: RecordWriteInput & { Keys?: readonly string[] | null; View?: Record<string, unknown> | null },
  scripts: RecordScripts = noScripts,
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  requireRecordHolder(site);
  await requireWriter(principal, site);
  if (!input.Keys || input.Keys.length === 0) throw new InvalidJsonError('upsert without Keys');
  const keys = keysMatch(principal, site, input.Keys, input);
  const view = compileViewFor(principal, site, input.View);
  let limits: Awaited<ReturnType<typeof useApiCall>> | undefined;
  // A create that loses its key claim to a concurrent upsert matches again, and then updates.
  const { record, created } = await retryOnConcurrentChange(async () => {
    const claim = await readClaim(site, keys.values, input.View);
    const claimed = claim.holder && [claim.holder].filter((r) => r.siteId === site.siteId && view.filter(r));
    const found = [...(await selectAll([site], view)), ...(claimed ?? [])].filter(keys.match);
    const matches = [...new Map(found.map((r) => [r.recordId, r])).values()];
    const [only, second] = matches;
    if (second) throw new MultipleMatchesError(`${matches.length} records match the upsert keys`);
    if (only) await requireOnRecord(principal, site, only, Permission.Update);
    else await requirePermission(principal, site, Permission.Create);
    limits ??= await useApiCall(site);
    return only
      ? { record: await applyUpdate(principal, site, only, input, scripts), created: false }
      : {
          record: await insertNewRecord(principal, site, input, scripts, (id) => claimWrite(claim, id)),
          created: true,
        };
  });
  const message = created ? messages.created(record.title) : messages.updated(record.title);
  return { id: record.recordId, message, ...limits };
}

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
      writes.push({ before, after, extra });
      current.set(after.recordId, after);
    } else if (plan.create) {
      if (!plan.mayCreate) throw new ForbiddenError(`item ${index + 1}: no Create`);
      const { record: draft, extra } = await newRecord(principal, site, item, nextId++, time);
      const record = await scripts.before('BeforeCreate', site, draft);
      writes.push({ after: record, extra });
      current.set(record.recordId, record);
      created++;
    }
  }
  await writeRecords(site, writes);
  for (const { before, after } of writes)
    await scripts.after(before ? 'AfterUpdate' : 'AfterCreate', site, after, before);
  return created;
}
