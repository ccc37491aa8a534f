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
import { compileViewFor } from './record-get';
import { canOnRecord, grantedRecords } from './record-permissions';
import { type RecordWrite, writeRecords } from './record-repository';
import { selectAll } from './record-select';
import {
  changedRecord,
  checkedInput,
  createRecord,
  newRecord,
  requireRecordHolder,
  requireUnlocked,
  updateRecord,
} from './records';
import type { RecordWriteInput } from './schemas';
import { columnsOf, idColumnName } from './view/columns';
import type { CompiledView } from './view/view';

/**
 * `upsert` and `bulkupsert` (reference/pleasanter-items-api.md 6, 7): Keys name columns whose values in
 * the body must equal a record's (on top of the View's filters, within the site, permissions aside):
 * one match is updated, none created, more than one refused. bulkupsert checks every item (its fields,
 * its keys, its match, the lock of what it would update) before it writes any (CONTRACT 5.1).
 */

type Match = (record: ItemRecord) => boolean;

/** The predicate of the Keys for one body; an invalid key list is the reference's 400 naming them. */
function keysMatch(
  principal: Principal,
  site: Site,
  keys: readonly string[],
  input: RecordWriteInput,
): Match {
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
  }
  if (invalid.length > 0) throw new UpsertKeyError(invalid);
  return (record) => tests.every((test) => test(record));
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
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  requireRecordHolder(site);
  await requireWriter(principal, site);
  if (!input.Keys || input.Keys.length === 0) throw new InvalidJsonError('upsert without Keys');
  const match = keysMatch(principal, site, input.Keys, input);
  const matches = (await selectAll([site], compileViewFor(principal, site, input.View))).filter(match);
  const [only, second] = matches;
  if (second) throw new MultipleMatchesError(`${matches.length} records match the upsert keys`);
  // The single create and update check their own permission and count toward the daily limit.
  return only ? updateRecord(principal, only.recordId, input) : createRecord(principal, siteId, input);
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
    return keys.length > 0 ? keysMatch(principal, site, keys, item) : undefined;
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
}

/** bulkupsert's items in order, each checked into `writes`, then written; the count of records created. */
async function planAndWrite(plan: BulkPlan, writes: RecordWrite[]): Promise<number> {
  const { principal, site, view, current, time } = plan;
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
      const { after, extra } = await changedRecord(principal, site, before, item, time);
      writes.push({ before, after, extra });
      current.set(after.recordId, after);
    } else if (plan.create) {
      if (!plan.mayCreate) throw new ForbiddenError(`item ${index + 1}: no Create`);
      const { record, extra } = await newRecord(principal, site, item, nextId++, time);
      writes.push({ after: record, extra });
      current.set(record.recordId, record);
      created++;
    }
  }
  await writeRecords(site, writes);
  return created;
}
