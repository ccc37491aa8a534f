import type { Dept, Group, User } from './model';

/** A user as the API shows it: never a password or key hash, only whether a key exists. */
export function userView(user: User): Record<string, unknown> {
  return {
    UserId: user.userId,
    TenantId: user.tenantId,
    LoginId: user.loginId,
    Name: user.name,
    TenantManager: user.tenantManager,
    Disabled: user.disabled,
    DeptId: user.deptId ?? 0,
    // The user's own zone; empty when the tenant's (or the service's) applies.
    TimeZone: user.timeZone ?? '',
    HasApiKey: user.apiKeyHash !== undefined,
    CreatedTime: new Date(user.createdAt).toISOString(),
    UpdatedTime: new Date(user.updatedAt).toISOString(),
  };
}

export function groupView(group: Group): Record<string, unknown> {
  return {
    GroupId: group.groupId,
    TenantId: group.tenantId,
    GroupName: group.groupName,
    Members: [...group.memberIds.map((id) => `User,${id}`), ...group.deptIds.map((id) => `Dept,${id}`)],
    CreatedTime: new Date(group.createdAt).toISOString(),
    UpdatedTime: new Date(group.updatedAt).toISOString(),
  };
}

export function deptView(dept: Dept): Record<string, unknown> {
  return {
    DeptId: dept.deptId,
    TenantId: dept.tenantId,
    DeptCode: dept.deptCode,
    DeptName: dept.deptName,
    Disabled: dept.disabled,
    CreatedTime: new Date(dept.createdAt).toISOString(),
    UpdatedTime: new Date(dept.updatedAt).toISOString(),
  };
}

/** The reference's paged read shape, here with the one item asked for. */
export function single(item: Record<string, unknown>): Record<string, unknown> {
  return { Offset: 0, PageSize: 1, TotalCount: 1, Data: [item] };
}
