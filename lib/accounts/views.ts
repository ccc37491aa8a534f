import { formatLocal } from '../zoned-time';
import type { Dept, Group, User } from './model';

/**
 * Users, groups and depts as `users|groups|depts/get` and `{id}/get` show them (reference UserApiModel, GroupApiModel,
 * DeptApiModel; reference/pleasanter-items-api.md 10): times in the caller's zone without offset, as the
 * record API answers them, and the ApiVersion of the answer.
 */

const API_VERSION = 1.1;

/** A user as the API shows it: never a password or key hash, only whether a key exists. */
export function userView(user: User, zone: string): Record<string, unknown> {
  return {
    ApiVersion: API_VERSION,
    UserId: user.userId,
    TenantId: user.tenantId,
    LoginId: user.loginId,
    Name: user.name,
    TenantManager: user.tenantManager,
    Disabled: user.disabled,
    DeptId: user.deptId ?? 0,
    // The user's own zone; empty when the tenant's (or the service's) applies.
    TimeZone: user.timeZone ?? '',
    // The user's own language; empty when Service.DefaultLanguage applies.
    Language: user.language ?? '',
    // Only where the user has some, as the reference answers them with ApiGetMailAddresses.
    MailAddresses: user.mailAddresses,
    HasApiKey: user.apiKeyHash !== undefined,
    CreatedTime: formatLocal(user.createdAt, zone),
    UpdatedTime: formatLocal(user.updatedAt, zone),
  };
}

export function groupView(group: Group, zone: string): Record<string, unknown> {
  const members = [...group.memberIds.map((id) => `User,${id}`), ...group.deptIds.map((id) => `Dept,${id}`)];
  return {
    ApiVersion: API_VERSION,
    GroupId: group.groupId,
    TenantId: group.tenantId,
    GroupName: group.groupName,
    Members: members,
    // The reference's form: each member with its group-admin flag, which Kiroku does not have.
    GroupMembers: members.map((member) => `${member},False`),
    CreatedTime: formatLocal(group.createdAt, zone),
    UpdatedTime: formatLocal(group.updatedAt, zone),
  };
}

export function deptView(dept: Dept, zone: string): Record<string, unknown> {
  return {
    ApiVersion: API_VERSION,
    DeptId: dept.deptId,
    TenantId: dept.tenantId,
    DeptCode: dept.deptCode,
    DeptName: dept.deptName,
    Disabled: dept.disabled,
    CreatedTime: formatLocal(dept.createdAt, zone),
    UpdatedTime: formatLocal(dept.updatedAt, zone),
  };
}
