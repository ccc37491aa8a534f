import type { Dept, Group, User } from '../accounts/model';
import type { Column, ColumnKind, ColumnValue } from '../items/view/columns';

/**
 * The columns a View may name on users/get, groups/get and depts/get: the fields the answer shows, each
 * filtered and sorted with the value syntax of its kind, as on a table's columns (reference
 * pleasanter-items-api.md 10; the reference reuses View.cs on the Users, Groups and Depts tables).
 */

function columns<R>(
  list: readonly (readonly [string, ColumnKind, (account: R) => ColumnValue])[],
): ReadonlyMap<string, Column<R>> {
  return new Map(
    list.map(([name, kind, read]) => [
      name,
      { name, kind, nullable: false, multiple: false, searchType: 1, dateOnly: false, read },
    ]),
  );
}

const times = [
  ['CreatedTime', 'date', (a: { createdAt: number }) => a.createdAt],
  ['UpdatedTime', 'date', (a: { updatedAt: number }) => a.updatedAt],
] as const;

export const userColumns = columns<User>([
  ['UserId', 'numeric', (u) => u.userId],
  ['TenantId', 'numeric', (u) => u.tenantId],
  ['LoginId', 'text', (u) => u.loginId],
  ['Name', 'text', (u) => u.name],
  ['TenantManager', 'bool', (u) => u.tenantManager],
  ['Disabled', 'bool', (u) => u.disabled],
  // No dept reads as 0, as the answer shows it.
  ['DeptId', 'numeric', (u) => u.deptId ?? 0],
  ['TimeZone', 'text', (u) => u.timeZone ?? ''],
  ['Language', 'text', (u) => u.language ?? ''],
  ['HasApiKey', 'bool', (u) => u.apiKeyHash !== undefined],
  ...times,
]);

export const groupColumns = columns<Group>([
  ['GroupId', 'numeric', (g) => g.groupId],
  ['TenantId', 'numeric', (g) => g.tenantId],
  ['GroupName', 'text', (g) => g.groupName],
  ...times,
]);

export const deptColumns = columns<Dept>([
  ['DeptId', 'numeric', (d) => d.deptId],
  ['TenantId', 'numeric', (d) => d.tenantId],
  ['DeptCode', 'text', (d) => d.deptCode],
  ['DeptName', 'text', (d) => d.deptName],
  ['Disabled', 'bool', (d) => d.disabled],
  ...times,
]);
