import { tenantUsers } from '../accounts/directory';
import type { User } from '../accounts/model';
import { getDept, getGroup, getUser } from '../accounts/repository';
import type { AddressDirectory } from './addresses';

/**
 * The tenant's accounts as `[UserN]`, `[GroupN]` and `[DeptN]` see them: another tenant's ids name
 * nobody. The tenant's user list is read once per mail, and only when a group or a dept asks for it.
 */
export function tenantDirectory(tenantId: number): AddressDirectory {
  let users: Promise<User[]> | undefined;
  const allUsers = () => (users ??= tenantUsers(tenantId));
  const inDepts = async (deptIds: readonly number[]) => {
    if (deptIds.length === 0) return [];
    const wanted = new Set(deptIds);
    return (await allUsers()).filter((user) => user.deptId !== undefined && wanted.has(user.deptId));
  };
  return {
    async user(id) {
      const user = await getUser(id);
      return user?.tenantId === tenantId ? user : undefined;
    },
    async groupMembers(id) {
      const group = await getGroup(id);
      if (group?.tenantId !== tenantId) return [];
      const members = new Set(group.memberIds);
      const direct = (await allUsers()).filter((user) => members.has(user.userId));
      return [...direct, ...(await inDepts(group.deptIds))];
    },
    async deptMembers(id) {
      const dept = await getDept(id);
      if (dept?.tenantId !== tenantId || dept.disabled) return [];
      return inDepts([id]);
    },
  };
}
