import type { Principal } from '../accounts/principal';
import { BadRequestError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import { recordHolders } from '../sites/model';
import { Permission, requirePermission, siteInTenant } from '../sites/permissions';
import { compileViewFor } from './record-get';
import { deleteRecords } from './record-repository';
import { selectAll } from './record-select';
import { requireUnlocked } from './records';

export interface BulkDeleteInput {
  readonly Selected?: readonly number[];
  readonly All?: boolean;
  readonly View?: Record<string, unknown> | null;
  readonly PhysicalDelete?: boolean;
}

/**
 * `items/{siteId}/bulkdelete` (reference/pleasanter-items-api.md 8): the site's records that the View
 * selects, and among them those in `Selected`, or with `All: true` those not in it. A departure
 * (CONTRACT 5.1): without `Selected`, without `All: true` and without a View that filters, nothing says
 * which records to delete, and the request is refused rather than deleting the whole table.
 */
export async function bulkDelete(
  principal: Principal,
  siteId: number,
  input: BulkDeleteInput,
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  if (!recordHolders.has(site.referenceType)) throw new BadRequestError(`site ${siteId} holds no records`);
  await requirePermission(principal, site, Permission.Delete);
  if (input.PhysicalDelete) await requirePermission(principal, site, Permission.ManageSite);
  const view = compileViewFor(principal, site, input.View);
  const selected = new Set(input.Selected ?? []);
  if (!view.filters && selected.size === 0 && input.All !== true) {
    throw new BadRequestError('bulkdelete without Selected, All or a View that filters');
  }
  const limits = await useApiCall(site);
  const records = (await selectAll([site], view)).filter((record) =>
    input.All === true
      ? !selected.has(record.recordId)
      : selected.size === 0 || selected.has(record.recordId),
  );
  for (const record of records) await requireUnlocked(principal, record);
  // Their files go through the Items stream (functions/record-files.ts), as a single delete's do.
  await deleteRecords(records);
  const message = input.PhysicalDelete
    ? messages.physicallyDeleted(records.length)
    : messages.bulkDeleted(site.title, records.length);
  return { id: siteId, message, ...limits };
}
