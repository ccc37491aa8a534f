import { tenantDepts, tenantGroups, tenantUsers } from '../accounts/directory';
import { createGroup, updateGroup } from '../accounts/groups';
import type { Group } from '../accounts/model';
import type { Principal } from '../accounts/principal';
import { groupCreateRequest } from '../accounts/schemas';
import { requireManager } from '../accounts/users';
import type { CsvEncoding } from '../csv/csv';
import { type Column, csvBoolean, ImportRowError, readCsvTable } from './csv-table';
import { groupsImportedMessage } from './messages';
import { checked } from './row-input';

/**
 * `groups/import` (reference GroupUtilities.ImportByApi): one group member a row. GroupId selects a group
 * of the tenant; without one, rows of the same GroupName make one new group. MemberType User or Dept with
 * MemberKey its LoginId or DeptCode adds that member; ReplaceAllGroupMembers first empties the members of
 * the groups listed. GroupName is the required column. Kiroku's groups hold neither groups nor admins: a
 * Group member or MemberIsAdmin is refused rather than dropped. Every row is checked before the first write.
 */

const columns: readonly Column[] = [
  { name: 'GroupId', labels: ['Group ID', 'グループID'] },
  { name: 'GroupName', labels: ['Group name', 'グループ名'] },
  { name: 'MemberType', labels: ['Member type', 'メンバー種別'] },
  { name: 'MemberKey', labels: ['Member key', 'メンバーキー'] },
  { name: 'MemberName', labels: ['Member name', 'メンバー名'] },
  { name: 'MemberIsAdmin', labels: ['Member is admin', 'メンバー管理者'] },
];

interface Planned {
  readonly group?: Group;
  name: string;
  readonly members: Set<string>;
  lastRow: number;
}

export async function importGroups(
  principal: Principal,
  file: Uint8Array | undefined,
  encoding: CsvEncoding,
  replaceAllMembers: boolean,
) {
  requireManager(principal);
  const table = await readCsvTable(file, encoding, columns, ['GroupName']);
  const memberOf = await memberResolver(principal);
  const groups = await groupsOfTenant(principal);
  const plans = new Map<string, Planned>();
  const counts = { members: { added: 0, updated: 0 } };
  for (const { row, cells } of table.rows) {
    const name = cells.get('GroupName') ?? '';
    if (!name) throw new ImportRowError(row, 'GroupName', 'is required');
    const group = groups.get(Number(cells.get('GroupId') || Number.NaN));
    const key = group ? `id:${group.groupId}` : `name:${name}`;
    let plan = plans.get(key);
    if (!plan) {
      const members = group && !replaceAllMembers ? [...membersOf(group)] : [];
      plan = { group, name, members: new Set(members), lastRow: row };
      plans.set(key, plan);
    }
    plan.name = name;
    plan.lastRow = row;
    const member = memberOf(row, cells.get('MemberType') ?? '', cells.get('MemberKey') ?? '');
    if (csvBoolean(cells.get('MemberIsAdmin') ?? '')) {
      throw new ImportRowError(row, 'MemberIsAdmin', 'Kiroku’s groups have no admins');
    }
    if (!member) continue;
    if (!plan.members.has(member)) {
      plan.members.add(member);
      counts.members.added++;
    } else if (cells.get('MemberIsAdmin')) counts.members.updated++;
  }
  const writes = [...plans.values()].map((plan) => ({
    plan,
    input: checked(groupCreateRequest, plan.lastRow, { GroupName: plan.name, Members: [...plan.members] }),
  }));
  let added = 0;
  let updated = 0;
  for (const { plan, input } of writes) {
    if (!plan.group) {
      await createGroup(principal, input);
      added++;
    } else if (plan.group.groupName !== input.GroupName || !sameMembers(plan.group, plan.members)) {
      await updateGroup(principal, plan.group.groupId, input);
      if (plan.group.groupName !== input.GroupName) updated++;
    }
  }
  return { id: 0, message: groupsImportedMessage({ added, updated }, counts.members) };
}

async function groupsOfTenant(principal: Principal): Promise<Map<number, Group>> {
  return new Map((await tenantGroups(principal.tenantId)).map((group) => [group.groupId, group]));
}

function membersOf(group: Group): string[] {
  return [...group.memberIds.map((id) => `User,${id}`), ...group.deptIds.map((id) => `Dept,${id}`)];
}

function sameMembers(group: Group, members: ReadonlySet<string>): boolean {
  const before = membersOf(group);
  return before.length === members.size && before.every((member) => members.has(member));
}

/** MemberType and MemberKey as `User,<id>` or `Dept,<id>` (undefined: the row names no member). */
async function memberResolver(principal: Principal) {
  const [users, depts] = await Promise.all([
    tenantUsers(principal.tenantId),
    tenantDepts(principal.tenantId),
  ]);
  const userIds = new Map(users.map((user) => [user.loginId.toLowerCase(), user.userId]));
  return (row: number, type: string, key: string): string | undefined => {
    if (type === '') return undefined;
    if (type === 'Group') throw new ImportRowError(row, 'MemberType', 'Kiroku’s groups hold no groups');
    if (type !== 'User' && type !== 'Dept') {
      throw new ImportRowError(
        row,
        'MemberType',
        `${type} is not User or Dept`,
        `Invalid Member Type. Row: ${row}`,
      );
    }
    const ids =
      type === 'User'
        ? [userIds.get(key.toLowerCase())].filter((id) => id !== undefined)
        : depts.filter((dept) => dept.deptCode === key).map((dept) => dept.deptId);
    if (ids.length !== 1) {
      throw new ImportRowError(
        row,
        'MemberKey',
        `no ${type} ${key}`,
        `It is a member that does not exist. Row: ${row}`,
      );
    }
    return `${type},${ids[0]}`;
  };
}
