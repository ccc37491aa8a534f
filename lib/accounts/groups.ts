import type * as z from 'zod';
import { now } from '../clock';
import { BadRequestError, NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import type { Group } from './model';
import type { Principal } from './principal';
import * as repository from './repository';
import type { groupCreateRequest, groupUpdateRequest } from './schemas';
import { requireManager } from './users';

export async function createGroup(
  principal: Principal,
  input: z.infer<typeof groupCreateRequest>,
): Promise<Outcome> {
  requireManager(principal);
  const members = await membersOf(principal, input.Members ?? []);
  const time = now();
  const group: Group = {
    groupId: await repository.nextId('Group'),
    tenantId: principal.tenantId,
    groupName: input.GroupName,
    ...members,
    createdAt: time,
    updatedAt: time,
  };
  await repository.saveGroup(undefined, group);
  return { id: group.groupId, message: messages.created(group.groupName) };
}

export async function updateGroup(
  principal: Principal,
  groupId: number,
  input: z.infer<typeof groupUpdateRequest>,
): Promise<Outcome> {
  requireManager(principal);
  const before = await groupInTenant(principal, groupId);
  const after: Group = {
    ...before,
    groupName: input.GroupName ?? before.groupName,
    ...(input.Members === undefined ? {} : await membersOf(principal, input.Members)),
    updatedAt: now(),
  };
  await repository.saveGroup(before, after);
  return { id: groupId, message: messages.updated(after.groupName) };
}

export async function deleteGroup(principal: Principal, groupId: number): Promise<Outcome> {
  requireManager(principal);
  const group = await groupInTenant(principal, groupId);
  await repository.deleteGroup(group);
  return { id: groupId, message: messages.deleted(group.groupName) };
}

/** One of the caller's tenant; another tenant's behave as if they did not exist. */
export async function groupInTenant(principal: Principal, groupId: number): Promise<Group> {
  const group = await repository.getGroup(groupId);
  if (!group || group.tenantId !== principal.tenantId)
    throw new NotFoundError(`no group ${groupId} in tenant ${principal.tenantId}`);
  return group;
}

/** `"User,<id>"` and `"Dept,<id>"` entries, each a user or a dept of the caller's tenant. */
async function membersOf(
  principal: Principal,
  members: readonly string[],
): Promise<Pick<Group, 'memberIds' | 'deptIds'>> {
  const idsOf = (kind: string) =>
    [
      ...new Set(
        members
          .filter((member) => member.startsWith(`${kind},`))
          .map((member) => Number(member.slice(kind.length + 1))),
      ),
    ].sort((a, b) => a - b);
  const memberIds = idsOf('User');
  const deptIds = idsOf('Dept');
  const [users, depts] = await Promise.all([
    Promise.all(memberIds.map((id) => repository.getUser(id))),
    Promise.all(deptIds.map((id) => repository.getDept(id))),
  ]);
  const foreignUser = memberIds.find((_id, index) => users[index]?.tenantId !== principal.tenantId);
  if (foreignUser !== undefined) {
    throw new BadRequestError(`member User,${foreignUser} is not a user of the tenant`);
  }
  const foreignDept = deptIds.find((_id, index) => depts[index]?.tenantId !== principal.tenantId);
  if (foreignDept !== undefined) {
    throw new BadRequestError(`member Dept,${foreignDept} is not a dept of the tenant`);
  }
  return { memberIds, deptIds };
}
