import type { Principal } from '../accounts/principal';
import type { Site } from './model';
import { membershipOf, sitePermission } from './permissions';

/**
 * A site's `ReadColumnAccessControls` (the reference's ColumnAccessControl.Allowed): who may read a column.
 * A column without an entry, or with an empty one, is read by whoever reads the record. Otherwise the
 * caller's dept, one of their groups, or their user id listed; or every flag of `Type` in the caller's
 * permission on the site; or, with `RecordUsers` (Manager, Owner…), the users the record names: `mine`,
 * the record's own roles of the caller, and when no one record is concerned (an aggregate) any of them,
 * as the reference passes no record there. Tenant managers and privileged users read every column, as
 * they pass every check of their tenant (CONTRACT 5).
 *
 * Only server scripts' aggregates ask this so far: the API's reads show every column.
 */
export async function canReadColumn(
  principal: Principal,
  site: Site,
  columnName: string,
  mine?: readonly string[],
): Promise<boolean> {
  if (principal.tenantManager || principal.privileged) return true;
  const controls = site.siteSettings.ReadColumnAccessControls;
  const control = Array.isArray(controls)
    ? (controls.find((entry) => entry?.ColumnName === columnName) as Record<string, unknown> | undefined)
    : undefined;
  if (!control) return true;
  const ids = (value: unknown) => (Array.isArray(value) ? value.map(Number) : []);
  const depts = ids(control.Depts);
  const groups = ids(control.Groups);
  const users = ids(control.Users);
  const recordUsers = Array.isArray(control.RecordUsers) ? control.RecordUsers.map(String) : [];
  const type = Number(control.Type ?? 0) || 0;
  if (!depts.length && !groups.length && !users.length && !recordUsers.length && type === 0) return true;
  const membership = await membershipOf(principal);
  if (membership.deptId !== undefined && depts.includes(membership.deptId)) return true;
  if (membership.groupIds.some((id) => groups.includes(id))) return true;
  if (users.includes(principal.userId)) return true;
  if (type !== 0) {
    if (((await sitePermission(principal, site)) & type) === type) return true;
    if (recordUsers.length === 0) return false;
  }
  return recordUsers.some((role) => mine === undefined || mine.includes(role));
}
