import type { Principal } from '../accounts/principal';
import { ForbiddenError, InvalidJsonError, MultipleMatchesError, UpsertKeyError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import type { Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant, sitePermission } from '../sites/permissions';
import { retryOnConcurrentChange } from '../storage/retry';
import type { ItemRecord } from './model';
import { compileViewFor } from './record-get';
import { grantedRecords, requireOnRecord } from './record-permissions';
import { noScripts, type RecordScripts } from './record-scripts';
import { selectAll } from './record-select';
import { applyUpdate, checkedInput, insertNewRecord, requireRecordHolder } from './records';
import type { RecordWriteInput } from './schemas';
import { claimWrite, readClaim, type UpsertClaim } from './upsert-claims';
import { type ColumnValue, columnsOf, idColumnName } from './view/columns';
import type { CompiledView } from './view/view';

/**
 * `upsert` (reference/pleasanter-items-api.md 6): Keys name columns whose values in the body must equal a
 * record's (on top of the View's filters, within the site, permissions aside): one match is updated, none
 * created, more than one refused. The write runs the site's scripts of its path, as create and update do
 * (CONTRACT 8). Concurrent upserts of one key create one record (lib/items/upsert-claims.ts). bulkupsert
 * (lib/items/bulk-upsert.ts) shares the Keys.
 */

export type Match = (record: ItemRecord) => boolean;

/** The Keys of one body: their predicate, and the values it tests (a false Check key tests none). */
interface KeyMatch {
  readonly match: Match;
  readonly values: readonly (readonly [string, ColumnValue])[];
}

/** The Keys of one body; an invalid key list is the reference's 400 naming them. */
export function keysMatch(
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
export async function requireWriter(principal: Principal, site: Site): Promise<void> {
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
    const only = await matchOf(site, view, keys.match, claim);
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

/**
 * The one record the Keys match among the site's records and the claim's (read consistently, so that a
 * record a concurrent upsert has just created counts even before the index that selectAll walks shows it).
 */
async function matchOf(
  site: Site,
  view: CompiledView,
  match: Match,
  claim: UpsertClaim,
): Promise<ItemRecord | undefined> {
  const claimed = claim.holder?.siteId === site.siteId && view.filter(claim.holder) ? [claim.holder] : [];
  const found = [...(await selectAll([site], view)), ...claimed].filter(match);
  const matches = [...new Map(found.map((record) => [record.recordId, record])).values()];
  if (matches.length > 1) throw new MultipleMatchesError(`${matches.length} records match the upsert keys`);
  return matches[0];
}
