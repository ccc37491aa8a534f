import type { Principal } from '../accounts/principal';
import { MAX_BULK } from '../bounds';
import { BadRequestError, ForbiddenError, OutOfBoundsError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import { recordHolders, type Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant, sitePermission } from '../sites/permissions';
import type { ItemRecord } from './model';
import { deletionWrites } from './record-design';
import { compileViewFor } from './record-get';
import { deleteChildren, linkedChildren } from './record-links';
import { grantedRecords } from './record-permissions';
import { deleteRecords, type TransactItem } from './record-repository';
import { noScripts, type RecordScripts } from './record-scripts';
import { selectAll } from './record-select';
import { requireUnlocked } from './records';
import { purgeFromBin } from './recycle-bin';

export interface BulkDeleteInput {
  readonly Selected?: readonly number[];
  readonly All?: boolean;
  readonly View?: Record<string, unknown> | null;
  readonly PhysicalDelete?: boolean;
}

/**
 * The records a bulkdelete of `input` deletes, its permission and selection checks made: the request's,
 * and a server script's BulkDelete held for its Before condition's save (lib/scripts/calls/item-writes.ts),
 * which answers the count before it deletes.
 */
export async function bulkDeleteSelection(
  principal: Principal,
  siteId: number,
  input: BulkDeleteInput,
): Promise<{ site: Site; records: ItemRecord[]; names: (record: ItemRecord) => boolean }> {
  const site = await siteInTenant(principal, siteId);
  if (!recordHolders.has(site.referenceType)) throw new BadRequestError(`site ${siteId} holds no records`);
  // Without Delete on the site, only records whose own rows give Delete can be deleted (and are selected).
  const wholeSite = ((await sitePermission(principal, site)) & Permission.Delete) !== 0;
  const granted = wholeSite ? [] : await grantedRecords(principal, site, Permission.Delete);
  if (!wholeSite && granted.length === 0) {
    throw new ForbiddenError(`user ${principal.userId} may delete nothing in site ${siteId}`);
  }
  if (input.PhysicalDelete) await requirePermission(principal, site, Permission.ManageSite);
  const view = compileViewFor(principal, site, input.View);
  const selected = new Set(input.Selected ?? []);
  if (!view.filters && selected.size === 0 && input.All !== true) {
    throw new BadRequestError('bulkdelete without Selected, All or a View that filters');
  }
  const candidates = wholeSite ? await selectAll([site], view) : granted.filter(view.filter);
  const chosen = (record: ItemRecord) =>
    input.All === true
      ? !selected.has(record.recordId)
      : selected.size === 0 || selected.has(record.recordId);
  const records = candidates.filter(chosen);
  // Selected is bounded by the schema; All and a View may still select more than one request deletes.
  if (records.length > MAX_BULK.bulkDelete) {
    const problem = `selects ${records.length} records; one bulkdelete deletes at most ${MAX_BULK.bulkDelete}`;
    throw new OutOfBoundsError(input.All === true ? 'All' : 'View', problem);
  }
  // What the selection names, current or not: PhysicalDelete purges the recycle bin's entries it names too.
  return { site, records, names: (record) => chosen(record) && view.filter(record) };
}

/**
 * `items/{siteId}/bulkdelete` (reference/pleasanter-items-api.md 8): the site's records that the View
 * selects, and among them those in `Selected`, or with `All: true` those not in it. A departure
 * (CONTRACT 5.1): without `Selected`, without `All: true` and without a View that filters, nothing says
 * which records to delete, and the request is refused rather than deleting the whole table.
 *
 * `scripts` run BeforeBulkDelete once before the records go (a refusal deletes nothing) and
 * AfterBulkDelete once after; a bulk delete runs no record's BeforeDelete or AfterDelete (the reference's
 * manual).
 */
export async function bulkDelete(
  principal: Principal,
  siteId: number,
  input: BulkDeleteInput,
  scripts: RecordScripts = noScripts,
): Promise<Outcome & { readonly count: number }> {
  const { site, records, names } = await bulkDeleteSelection(principal, siteId, input);
  const limits = await useApiCall(site);
  for (const record of records) await requireUnlocked(principal, record);
  await scripts.beforeBulk('BeforeBulkDelete', site);
  const children = await linkedChildren(principal, site, records);
  const releases = new Map<number, TransactItem[]>();
  for (const record of records) releases.set(record.recordId, await deletionWrites(principal, site, record));
  // Their files go through the Items stream (functions/record-files.ts), as a single delete's do.
  await deleteChildren(principal, children);
  await deleteRecords(records, (record) => releases.get(record.recordId) ?? [], principal.userId);
  // PhysicalDelete purges what the selection names in the recycle bin too: those just deleted and those
  // deleted before (the reference purges its deleted table), with their files and history (lib/items/recycle-bin.ts).
  const deleted = new Set(records.map((record) => record.recordId));
  const purged = input.PhysicalDelete
    ? await purgeFromBin(site, (record) => deleted.has(record.recordId) || names(record))
    : 0;
  await scripts.afterBulk('AfterBulkDelete', site);
  const message = input.PhysicalDelete
    ? messages.physicallyDeleted(purged)
    : messages.bulkDeleted(site.title, records.length);
  return { id: siteId, message, count: records.length, ...limits };
}
