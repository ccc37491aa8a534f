import { callerZone } from '../accounts/caller-zone';
import { deptInTenant } from '../accounts/depts';
import { tenantDepts, tenantGroups, tenantUsers } from '../accounts/directory';
import { groupInTenant } from '../accounts/groups';
import type { Dept, Group, User } from '../accounts/model';
import type { Principal } from '../accounts/principal';
import * as repository from '../accounts/repository';
import { userInTenant } from '../accounts/users';
import { deptView, groupView, userView } from '../accounts/views';
import { now } from '../clock';
import type { Column } from '../items/view/columns';
import { deptColumns, groupColumns, userColumns } from './columns';
import { compileListView } from './view';

/**
 * users|groups|depts/get and their `{id}/get` (reference/pleasanter-items-api.md 10, CONTRACT 5.1): every
 * account of the caller's tenant, or the one the path names, through the View, paged as the items API.
 * Any user of the tenant may list it, as in the reference; another tenant's accounts never appear.
 */

export interface AccountListInput {
  readonly Offset?: number;
  readonly PageSize?: number;
  readonly View?: Record<string, unknown> | null;
}

/** The reference's Api.PageSize: 1–199 kept, anything else 200. */
const PAGE_SIZE = 200;

interface Kind<R> {
  readonly columns: ReadonlyMap<string, Column<R>>;
  readonly idColumn: string;
  readonly id: (account: R) => number;
}

function page<R extends { readonly updatedAt: number }>(
  principal: Principal,
  kind: Kind<R>,
  accounts: readonly R[],
  input: AccountListInput,
  byPath: boolean,
): { accounts: R[]; frame: { Offset: number; PageSize: number; TotalCount: number } } {
  const view = compileListView(
    input.View,
    kind.columns,
    {
      userId: principal.userId,
      zone: callerZone(principal),
      now: now(),
      pathColumn: byPath ? kind.idColumn : undefined,
    },
    kind.id,
  );
  const selected = accounts.filter(view.filter).sort(view.compare);
  const offset = input.Offset ?? 0;
  const size = input.PageSize !== undefined && input.PageSize > 0 && input.PageSize < PAGE_SIZE;
  const pageSize = size ? (input.PageSize as number) : PAGE_SIZE;
  return {
    accounts: selected.slice(offset, offset + pageSize),
    frame: { Offset: offset, PageSize: pageSize, TotalCount: selected.length },
  };
}

const users: Kind<User> = { columns: userColumns, idColumn: 'UserId', id: (u) => u.userId };
const groups: Kind<Group> = { columns: groupColumns, idColumn: 'GroupId', id: (g) => g.groupId };
const depts: Kind<Dept> = { columns: deptColumns, idColumn: 'DeptId', id: (d) => d.deptId };

/** `pathId` 0: the tenant's users; else that user (404 when not the tenant's). */
export async function listUsers(principal: Principal, pathId: number, input: AccountListInput) {
  const byPath = pathId !== 0;
  const [all, groupsOf] = byPath
    ? [[await userInTenant(principal, pathId)], new Map([[pathId, await repository.groupIdsOf(pathId)]])]
    : await Promise.all([tenantUsers(principal.tenantId), membershipsOf(principal.tenantId)]);
  const { accounts, frame } = page(principal, users, all, input, byPath);
  const zone = callerZone(principal);
  const Data = accounts.map((user) => ({
    ...userView(user, zone),
    Groups: [...(groupsOf.get(user.userId) ?? [])].sort((a, b) => a - b).map((id) => `Group,${id}`),
  }));
  return { ...frame, Data };
}

/** The groups each user of the tenant is a member of (directly), from the tenant's groups. */
async function membershipsOf(tenantId: number): Promise<Map<number, number[]>> {
  const byUser = new Map<number, number[]>();
  for (const group of await tenantGroups(tenantId)) {
    for (const userId of group.memberIds) {
      byUser.set(userId, [...(byUser.get(userId) ?? []), group.groupId]);
    }
  }
  return byUser;
}

export async function listGroups(principal: Principal, pathId: number, input: AccountListInput) {
  const byPath = pathId !== 0;
  const all = byPath ? [await groupInTenant(principal, pathId)] : await tenantGroups(principal.tenantId);
  const { accounts, frame } = page(principal, groups, all, input, byPath);
  const zone = callerZone(principal);
  return { ...frame, Data: accounts.map((group) => groupView(group, zone)) };
}

export async function listDepts(principal: Principal, pathId: number, input: AccountListInput) {
  const byPath = pathId !== 0;
  const all = byPath ? [await deptInTenant(principal, pathId)] : await tenantDepts(principal.tenantId);
  const { accounts, frame } = page(principal, depts, all, input, byPath);
  const zone = callerZone(principal);
  return { ...frame, Data: accounts.map((dept) => deptView(dept, zone)) };
}
