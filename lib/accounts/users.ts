import type * as z from 'zod';
import { now } from '../clock';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { ianaZone } from '../zoned-time';
import { forgetCredentials } from './authentication';
import type { User } from './model';
import type { Principal } from './principal';
import { type Giver, grantsPrivilege, requireMayManage } from './privilege';
import * as repository from './repository';
import type { userCreateRequest, userUpdateRequest } from './schemas';
import { hashPassword, hashToken, newApiKey } from './secrets';

/** Tenant managers and privileged users manage their tenant's users and groups. */
export function requireManager(principal: Principal): void {
  if (!principal.tenantManager && !principal.privileged) {
    throw new ForbiddenError(`user ${principal.userId} is not a tenant manager`);
  }
}

/** A user of the caller's tenant; another tenant's users behave as if they did not exist. */
export async function userInTenant(principal: Principal, userId: number): Promise<User> {
  const user = await repository.getUser(userId);
  if (!user || user.tenantId !== principal.tenantId)
    throw new NotFoundError(`no user ${userId} in tenant ${principal.tenantId}`);
  return user;
}

/** A DeptId given for a user: 0 is none; anything else must be a dept of the tenant (else 400). */
async function deptIdFor(tenantId: number, deptId: number | undefined): Promise<number | undefined> {
  if (!deptId) return undefined;
  const dept = await repository.getDept(deptId);
  if (!dept || dept.tenantId !== tenantId) {
    throw new BadRequestError(`DeptId ${deptId} is not a dept of tenant ${tenantId}`);
  }
  return deptId;
}

/** A TimeZone as stored: its IANA name in the runtime's spelling (the schema has checked it is one). */
export function zoneFor(zone: string | null | undefined): string | undefined {
  return zone ? ianaZone(zone) : undefined;
}

export async function createUser(
  tenantId: number,
  input: Pick<
    z.infer<typeof userCreateRequest>,
    | 'LoginId'
    | 'Name'
    | 'Password'
    | 'TenantManager'
    | 'Disabled'
    | 'DeptId'
    | 'TimeZone'
    | 'Language'
    | 'MailAddresses'
  >,
  /** Who gives the login id: a privileged one only a privileged caller (or the first start) may give. */
  giver: Giver,
  /** true for a new key, or the key to use. */
  withApiKey: boolean | string = false,
): Promise<{ user: User; apiKey?: string }> {
  const privilegeGranted = grantsPrivilege(giver, input.LoginId);
  const apiKey = typeof withApiKey === 'string' ? withApiKey : withApiKey ? newApiKey() : undefined;
  const time = now();
  const user: User = {
    userId: await repository.nextId('User'),
    tenantId,
    loginId: input.LoginId,
    name: input.Name,
    tenantManager: input.TenantManager ?? false,
    disabled: input.Disabled ?? false,
    deptId: await deptIdFor(tenantId, input.DeptId),
    timeZone: zoneFor(input.TimeZone),
    language: input.Language,
    mailAddresses: input.MailAddresses?.length ? input.MailAddresses : undefined,
    passwordHash: input.Password === undefined ? undefined : await hashPassword(input.Password),
    apiKeyHash: apiKey === undefined ? undefined : hashToken(apiKey),
    privilegeGranted,
    createdAt: time,
    updatedAt: time,
  };
  await repository.insertUser(user);
  return { user, apiKey };
}

/** Managers change anything; a user changes only their own name and password. */
export async function updateUser(
  principal: Principal,
  userId: number,
  input: z.infer<typeof userUpdateRequest>,
): Promise<Outcome> {
  const self = principal.userId === userId;
  const managing = principal.tenantManager || principal.privileged;
  if (!self) requireManager(principal);
  if (
    (self || !managing) &&
    (input.TenantManager !== undefined ||
      input.Disabled !== undefined ||
      input.LoginId !== undefined ||
      input.DeptId !== undefined)
  ) {
    throw new ForbiddenError(
      `user ${principal.userId} may not change their own LoginId, TenantManager, Disabled or DeptId`,
    );
  }
  const before = await userInTenant(principal, userId);
  requireMayManage(principal, before);
  const time = now();
  const renamed = input.LoginId !== undefined && input.LoginId !== before.loginId;
  // A new password or disabling ends the user's logins made before it (CONTRACT section 5).
  const endsLogins = input.Password !== undefined || (input.Disabled === true && !before.disabled);
  const after: User = {
    ...before,
    loginId: input.LoginId ?? before.loginId,
    privilegeGranted: renamed ? grantsPrivilege(principal, input.LoginId as string) : before.privilegeGranted,
    loginsNotBefore: endsLogins ? time : before.loginsNotBefore,
    name: input.Name ?? before.name,
    tenantManager: input.TenantManager ?? before.tenantManager,
    disabled: input.Disabled ?? before.disabled,
    deptId: input.DeptId === undefined ? before.deptId : await deptIdFor(before.tenantId, input.DeptId),
    timeZone: input.TimeZone === undefined ? before.timeZone : zoneFor(input.TimeZone),
    language: input.Language === undefined ? before.language : (input.Language ?? undefined),
    mailAddresses:
      input.MailAddresses === undefined
        ? before.mailAddresses
        : input.MailAddresses.length > 0
          ? input.MailAddresses
          : undefined,
    passwordHash: input.Password === undefined ? before.passwordHash : await hashPassword(input.Password),
    updatedAt: time,
  };
  // The login that changes its own password stays: it counts as made with the new password.
  if (self && input.Password !== undefined && principal.loginHash) {
    await repository.restampLogin(principal.loginHash, time);
  }
  await repository.updateUser(before, after);
  forgetCredentials();
  return { id: userId, message: messages.updated(after.name) };
}

export async function deleteUser(principal: Principal, userId: number): Promise<Outcome> {
  requireManager(principal);
  if (principal.userId === userId) throw new ForbiddenError('a user may not delete themselves');
  const user = await userInTenant(principal, userId);
  requireMayManage(principal, user);
  await repository.deleteUser(user);
  forgetCredentials();
  return { id: userId, message: messages.deleted(user.name) };
}

/** The user or a tenant manager; the new key is shown once, in this answer, and replaces any old one. */
export async function createApiKey(
  principal: Principal,
  userId: number,
): Promise<Outcome & { apiKey: string }> {
  if (principal.userId !== userId) requireManager(principal);
  const user = await userInTenant(principal, userId);
  requireMayManage(principal, user);
  const apiKey = newApiKey();
  await repository.replaceApiKey(user, hashToken(apiKey));
  forgetCredentials();
  return { id: userId, message: messages.apiKeyCreated, apiKey };
}

export async function deleteApiKey(principal: Principal, userId: number): Promise<Outcome> {
  if (principal.userId !== userId) requireManager(principal);
  const user = await userInTenant(principal, userId);
  requireMayManage(principal, user);
  if (user.apiKeyHash !== undefined) await repository.replaceApiKey(user, undefined);
  forgetCredentials();
  return { id: userId, message: messages.apiKeyDeleted };
}
