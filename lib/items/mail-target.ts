import type { Principal } from '../accounts/principal';
import { NotFoundError } from '../errors';
import { Permission, requirePermission, siteInTenant } from '../sites/permissions';
import { requireOnRecord } from './record-permissions';
import { findItem } from './record-repository';

/** What `items/{id}/OutgoingMails/Send` mails about: a site, or a record of it. */
export interface MailTarget {
  readonly tenantId: number;
  readonly siteId: number;
  readonly recordId?: number;
}

/**
 * The item a caller may send mail about (the reference's OutgoingMailValidators.OnSending): SendMail (16)
 * on a record (its site's bits and its own rows) or on a table; ManageSite on a folder or a dashboard.
 * Another tenant's id, or none, is 404.
 */
export async function mailTarget(principal: Principal, id: number): Promise<MailTarget> {
  const item = await findItem(principal.tenantId, id);
  if (!item) throw new NotFoundError(`no item ${id} in tenant ${principal.tenantId}`);
  if (item.kind === 'site') {
    const { site } = item;
    const folder = site.referenceType === 'Sites' || site.referenceType === 'Dashboards';
    await requirePermission(principal, site, folder ? Permission.ManageSite : Permission.SendMail);
    return { tenantId: site.tenantId, siteId: site.siteId };
  }
  const { record } = item;
  const site = await siteInTenant(principal, record.siteId);
  await requireOnRecord(principal, site, record, Permission.SendMail);
  return { tenantId: record.tenantId, siteId: record.siteId, recordId: record.recordId };
}
