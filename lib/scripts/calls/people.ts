import { tenantUsers } from '../../accounts/directory';
import { updateGroup } from '../../accounts/groups';
import type { Dept, Group, User } from '../../accounts/model';
import { getDept, getGroup, getUser } from '../../accounts/repository';
import { groupUpdateRequest } from '../../accounts/schemas';
import type { HostCallTable, ScriptCallContext } from '../host-calls';
import { idOf, logRefusal, refused, scriptPrincipal } from './script-body';

/**
 * `users`, `depts` and `groups` (reference/pleasanter-script-objects.md 5, the 1.5 shapes): the accounts
 * of the script user's tenant, by id; another tenant's, a missing one and id 0 are null. Kiroku's groups
 * hold users and depts, never other groups, and have no Body, no Disabled flag and no group admins: those
 * read as "", false and false, GetChildren as an empty list and ContainsChild as false. Kiroku's users have
 * no UserCode ("") and no ServiceManager flag (false).
 */
export function peopleCalls(context: ScriptCallContext): HostCallTable {
  const { tenantId } = context.principal;
  const user = async (id: unknown) => {
    const known = idOf(id);
    const found = known ? await getUser(known) : undefined;
    return found?.tenantId === tenantId ? found : undefined;
  };
  const dept = async (id: unknown) => {
    const known = idOf(id);
    const found = known ? await getDept(known) : undefined;
    return found?.tenantId === tenantId ? found : undefined;
  };
  const group = async (id: unknown) => {
    const known = idOf(id);
    const found = known ? await getGroup(known) : undefined;
    return found?.tenantId === tenantId ? found : undefined;
  };
  return {
    'users.Get': async (id) => userModel(await user(id)),
    'depts.Get': async (id) => deptModel(await dept(id)),
    'depts.GetMembers': async (id) => {
      const found = await dept(id);
      if (!found) return [];
      const users = await tenantUsers(tenantId);
      return users.filter((each) => each.deptId === found.deptId).map(userModel);
    },
    'groups.Get': async (id) => groupModel(await group(id)),
    'groups.GetMembers': async (id) => {
      const found = await group(id);
      return found ? groupMembers(found) : [];
    },
    'groups.ContainsUser': async (id, userId) => {
      const [found, member] = await Promise.all([group(id), user(userId)]);
      if (!found || !member) return false;
      if (found.memberIds.includes(member.userId)) return true;
      // Through the user's dept, while it is enabled, as permissions reach a dept's users.
      const through = member.deptId === undefined ? undefined : await dept(member.deptId);
      return through !== undefined && !through.disabled && found.deptIds.includes(through.deptId);
    },
    'groups.ContainsDept': async (id, deptId) => {
      const found = await group(id);
      const known = idOf(deptId);
      return found !== undefined && known !== undefined && found.deptIds.includes(known);
    },
    'groups.Update': async (id, json) => {
      const known = idOf(id);
      const caller = await scriptPrincipal(context, json, groupUpdateRequest.shape);
      if (!caller.ok) {
        logRefusal(context, 'groups.Update', caller.problem);
        return false;
      }
      const input = groupUpdateRequest.safeParse(caller.body);
      if (known === undefined || !input.success) {
        const problem = input.success
          ? `${JSON.stringify(id)} is not a group id`
          : input.error.issues[0]?.message;
        logRefusal(context, 'groups.Update', String(problem));
        return false;
      }
      return updateGroup(caller.principal, known, input.data).then(
        () => true,
        refused(context, 'groups.Update', false),
      );
    },
  };
}

function userModel(user: User | undefined) {
  if (!user) return null;
  return {
    UserId: user.userId,
    DeptId: user.deptId ?? 0,
    LoginId: user.loginId,
    Name: user.name,
    UserCode: '',
    TenantManager: user.tenantManager,
    ServiceManager: false,
    Disabled: user.disabled,
  };
}

function deptModel(dept: Dept | undefined) {
  return dept ? { DeptId: dept.deptId, DeptCode: dept.deptCode, DeptName: dept.deptName } : null;
}

function groupModel(group: Group | undefined) {
  return group ? { GroupId: group.groupId, GroupName: group.groupName, Body: '', Disabled: false } : null;
}

/** The 1.5 member rows: one per user member and one per dept member, the other side's fields empty. */
async function groupMembers(group: Group) {
  const blank = { GroupId: 0, GroupName: '', DeptId: 0, DeptName: '', DeptCode: '', UserId: 0 };
  const person = { LoginId: '', Name: '', UserCode: '', TenantManager: false, Disabled: false, Admin: false };
  const [users, depts] = await Promise.all([
    Promise.all(group.memberIds.map((id) => getUser(id))),
    Promise.all(group.deptIds.map((id) => getDept(id))),
  ]);
  const mine = <T extends { tenantId: number }>(found: T | undefined): found is T =>
    found?.tenantId === group.tenantId;
  return [
    ...users.filter(mine).map((user) => ({
      ...blank,
      ...person,
      UserId: user.userId,
      LoginId: user.loginId,
      Name: user.name,
      TenantManager: user.tenantManager,
      Disabled: user.disabled,
    })),
    ...depts.filter(mine).map((dept) => ({
      ...blank,
      ...person,
      DeptId: dept.deptId,
      DeptName: dept.deptName,
      DeptCode: dept.deptCode,
      Disabled: dept.disabled,
    })),
  ];
}
