import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { BadRequestError, DuplicatedError, NotFoundError } from '../errors';
import { dynamo } from '../storage/clients';
import { failedConditions } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';
import { type CounterKind, type DirectoryKind, accountKeys as keys } from './keys';
import type { Dept, Group, Login, Tenant, User } from './model';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on the actions of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** What a group holds: users and depts, each listed in the group's item and with a membership entry. */
type MemberKind = 'user' | 'dept';
const MEMBERS_ATTRIBUTE: Record<MemberKind, string> = { user: 'MemberIds', dept: 'MemberDeptIds' };

function membershipKey(kind: MemberKind, id: number, groupId: number) {
  return kind === 'user' ? keys.membership(id, groupId) : keys.deptMembership(id, groupId);
}

const table = () => tableName('accounts');

export async function nextId(kind: CounterKind): Promise<number> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.counter(kind),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'Value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.Value);
}

export async function putTenant(tenant: Tenant): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...keys.tenant(tenant.tenantId),
        TenantId: tenant.tenantId,
        TenantName: tenant.tenantName,
        TimeZone: tenant.timeZone,
        CreatedAt: tenant.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getTenant(tenantId: number): Promise<Tenant | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.tenant(tenantId) }));
  const item = result.Item;
  if (!item) return undefined;
  return {
    tenantId: Number(item.TenantId),
    tenantName: String(item.TenantName),
    timeZone: typeof item.TimeZone === 'string' ? item.TimeZone : undefined,
    createdAt: Number(item.CreatedAt),
  };
}

export async function getUser(userId: number): Promise<User | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.user(userId) }));
  return result.Item ? toUser(result.Item) : undefined;
}

export async function findUserIdByLoginId(loginId: string): Promise<number | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.loginId(loginId) }));
  return result.Item ? Number(result.Item.UserId) : undefined;
}

export async function findUserIdByApiKeyHash(hash: string): Promise<number | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.apiKey(hash) }));
  return result.Item ? Number(result.Item.UserId) : undefined;
}

/** Creates the user and claims its login id in one transaction: a taken login id is a 409. */
export async function insertUser(user: User): Promise<void> {
  await transact(
    [
      { Put: { TableName: table(), Item: fromUser(user), ConditionExpression: 'attribute_not_exists(pk)' } },
      loginIdClaim(user),
      ...(user.apiKeyHash ? [apiKeyClaim(user.apiKeyHash, user.userId)] : []),
      directoryEntry(user.tenantId, 'USER', user.userId),
    ],
    'LoginId',
  );
}

/** Saves changed fields; a changed login id moves its claim in the same transaction. */
export async function updateUser(before: User, after: User): Promise<void> {
  const loginIdChanged = before.loginId.toLowerCase() !== after.loginId.toLowerCase();
  await transact(
    [
      {
        Put: {
          TableName: table(),
          Item: fromUser(after),
          ConditionExpression: 'attribute_exists(pk) AND UpdatedAt = :updatedAt',
          ExpressionAttributeValues: { ':updatedAt': before.updatedAt },
        },
      },
      ...(loginIdChanged
        ? [loginIdClaim(after), { Delete: { TableName: table(), Key: keys.loginId(before.loginId) } }]
        : []),
    ],
    'LoginId',
  );
}

/** Replaces the user's API key (or removes it when `hash` is undefined). */
export async function replaceApiKey(user: User, hash: string | undefined): Promise<User> {
  const after: User = { ...user, apiKeyHash: hash, updatedAt: now() };
  await transact([
    {
      Put: {
        TableName: table(),
        Item: fromUser(after),
        ConditionExpression: 'attribute_exists(pk) AND UpdatedAt = :updatedAt',
        ExpressionAttributeValues: { ':updatedAt': user.updatedAt },
      },
    },
    ...(user.apiKeyHash ? [{ Delete: { TableName: table(), Key: keys.apiKey(user.apiKeyHash) } }] : []),
    ...(hash ? [apiKeyClaim(hash, user.userId)] : []),
  ]);
  return after;
}

/**
 * Removes the user with its login id and API key in one transaction, then their places in groups, one
 * group at a time (a user may be in more groups than a transaction holds). A place left by a failure
 * grants nothing: permissions are resolved for an authenticated user, and the user is gone.
 */
export async function deleteUser(user: User): Promise<void> {
  await transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.user(user.userId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: table(), Key: keys.loginId(user.loginId) } },
    ...(user.apiKeyHash ? [{ Delete: { TableName: table(), Key: keys.apiKey(user.apiKeyHash) } }] : []),
    { Delete: { TableName: table(), Key: keys.directory(user.tenantId, 'USER', user.userId) } },
  ]);
  await leaveGroups('user', user.userId);
}

export function groupIdsOf(userId: number): Promise<number[]> {
  return groupIdsIn(keys.user(userId).pk);
}

export function deptGroupIdsOf(deptId: number): Promise<number[]> {
  return groupIdsIn(keys.dept(deptId).pk);
}

/** The groups a user's or a dept's partition records memberships of. */
async function groupIdsIn(pk: string): Promise<number[]> {
  const ids: number[] = [];
  for await (const item of queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :group)',
    ExpressionAttributeValues: { ':pk': pk, ':group': 'GROUP#' },
  })) {
    ids.push(Number(String(item.sk).slice('GROUP#'.length)));
  }
  return ids;
}

export async function getGroup(groupId: number): Promise<Group | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.group(groupId) }));
  return result.Item ? toGroup(result.Item) : undefined;
}

/** Writes the group and makes its membership entries match `after.memberIds` and `after.deptIds`. */
export async function saveGroup(before: Group | undefined, after: Group): Promise<void> {
  const membership = (kind: MemberKind, id: number) => membershipKey(kind, id, after.groupId);
  const changes = (kind: MemberKind, previousIds: readonly number[], nextIds: readonly number[]) => {
    const previous = new Set(previousIds);
    const next = new Set(nextIds);
    return [
      ...[...next]
        .filter((id) => !previous.has(id))
        .map(
          (id): TransactItem => ({
            Put: { TableName: table(), Item: { ...membership(kind, id), TenantId: after.tenantId } },
          }),
        ),
      ...[...previous]
        .filter((id) => !next.has(id))
        .map((id): TransactItem => ({ Delete: { TableName: table(), Key: membership(kind, id) } })),
    ];
  };
  const groupItem: TransactItem = {
    Put: {
      TableName: table(),
      Item: fromGroup(after),
      ...(before
        ? {
            ConditionExpression: 'attribute_exists(pk) AND UpdatedAt = :updatedAt',
            ExpressionAttributeValues: { ':updatedAt': before.updatedAt },
          }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    },
  };
  const memberships = [
    ...changes('user', before?.memberIds ?? [], after.memberIds),
    ...changes('dept', before?.deptIds ?? [], after.deptIds),
  ];
  if (memberships.length >= MAX_TRANSACTION_ITEMS - 1) {
    throw new BadRequestError(
      `${memberships.length} membership changes in one write; at most ${MAX_TRANSACTION_ITEMS - 2}`,
    );
  }
  const listed = before ? [] : [directoryEntry(after.tenantId, 'GROUP', after.groupId)];
  await transact([groupItem, ...listed, ...memberships]);
}

export async function deleteGroup(group: Group): Promise<void> {
  await transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.group(group.groupId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    ...group.memberIds.map(
      (userId): TransactItem => ({
        Delete: { TableName: table(), Key: keys.membership(userId, group.groupId) },
      }),
    ),
    ...group.deptIds.map(
      (deptId): TransactItem => ({
        Delete: { TableName: table(), Key: keys.deptMembership(deptId, group.groupId) },
      }),
    ),
    { Delete: { TableName: table(), Key: keys.directory(group.tenantId, 'GROUP', group.groupId) } },
  ]);
}

/** The tenant of the user, group or dept a permission entry or a group member names, if it exists. */
export async function tenantOfPrincipal(kind: string, id: number): Promise<number | undefined> {
  const owner =
    kind === 'User' ? await getUser(id) : kind === 'Group' ? await getGroup(id) : await getDept(id);
  return owner?.tenantId;
}

export async function getDept(deptId: number): Promise<Dept | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.dept(deptId) }));
  return result.Item ? toDept(result.Item) : undefined;
}

/** Creates (`before` undefined) or replaces the dept, refusing a change made meanwhile. */
export async function saveDept(before: Dept | undefined, after: Dept): Promise<void> {
  await transact([
    {
      Put: {
        TableName: table(),
        Item: fromDept(after),
        ...(before
          ? {
              ConditionExpression: 'attribute_exists(pk) AND UpdatedAt = :updatedAt',
              ExpressionAttributeValues: { ':updatedAt': before.updatedAt },
            }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    },
    ...(before ? [] : [directoryEntry(after.tenantId, 'DEPT', after.deptId)]),
  ]);
}

/**
 * Removes the dept, then its places in groups, one group at a time (a dept may be in more groups than a
 * transaction holds). Users keep their DeptId, as in the reference, and it grants nothing once the dept is
 * gone: membership is resolved through the dept's own item.
 */
export async function deleteDept(dept: Dept): Promise<void> {
  await transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.dept(dept.deptId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: table(), Key: keys.directory(dept.tenantId, 'DEPT', dept.deptId) } },
  ]);
  await leaveGroups('dept', dept.deptId);
}

/** Takes a removed user or dept out of every group it was in: the group's list and the membership entry. */
async function leaveGroups(kind: MemberKind, id: number): Promise<void> {
  const groupIds = kind === 'user' ? await groupIdsOf(id) : await deptGroupIdsOf(id);
  const membership = (groupId: number) => membershipKey(kind, id, groupId);
  for (const groupId of groupIds) {
    await transact([
      {
        Update: {
          TableName: table(),
          Key: keys.group(groupId),
          UpdateExpression: 'DELETE #members :member',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#members': MEMBERS_ATTRIBUTE[kind] },
          ExpressionAttributeValues: { ':member': new Set([id]) },
        },
      },
      { Delete: { TableName: table(), Key: membership(groupId) } },
    ]).catch(async (error) => {
      // The group went meanwhile, with its membership entries: nothing is left to remove.
      if (!(error instanceof NotFoundError)) throw error;
      await dynamo().send(new DeleteCommand({ TableName: table(), Key: membership(groupId) }));
    });
  }
}

export async function putLogin(hash: string, login: Login): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...keys.login(hash),
        UserId: login.userId,
        ExpiresAt: login.expiresAt,
        IssuedAt: login.issuedAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Keeps a login through its user's password change: it counts as made at `issuedAt`. */
export async function restampLogin(hash: string, issuedAt: number): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.login(hash),
      UpdateExpression: 'SET IssuedAt = :issuedAt',
      ExpressionAttributeValues: { ':issuedAt': issuedAt },
    }),
  );
}

export async function getLogin(hash: string): Promise<Login | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.login(hash) }));
  return result.Item
    ? {
        userId: Number(result.Item.UserId),
        expiresAt: Number(result.Item.ExpiresAt),
        issuedAt: typeof result.Item.IssuedAt === 'number' ? result.Item.IssuedAt : undefined,
      }
    : undefined;
}

export async function deleteLogin(hash: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: keys.login(hash) }));
}

/** The account's entry in its tenant's directory (lib/accounts/directory.ts reads it). */
export function directoryEntry(tenantId: number, kind: DirectoryKind, id: number): TransactItem {
  return { Put: { TableName: table(), Item: { ...keys.directory(tenantId, kind, id), Id: id } } };
}

function loginIdClaim(user: User): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...keys.loginId(user.loginId), UserId: user.userId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

function apiKeyClaim(hash: string, userId: number): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...keys.apiKey(hash), UserId: userId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Runs a transaction; a failed condition on a claim (login id) is a 409 naming `claimed`, on anything else
 * (the item changed or vanished meanwhile) a 404.
 */
async function transact(items: TransactItem[], claimed?: string): Promise<void> {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const failed = failedConditions(error);
    if (failed.length === 0) throw error;
    const failedClaim = failed.some((index) =>
      String(items[index]?.Put?.Item?.pk ?? '').startsWith('LOGINID#'),
    );
    if (failedClaim && claimed) throw new DuplicatedError(claimed);
    throw new NotFoundError('the item changed or vanished during the write');
  }
}

function fromUser(user: User): Record<string, unknown> {
  return {
    ...keys.user(user.userId),
    UserId: user.userId,
    TenantId: user.tenantId,
    LoginId: user.loginId,
    Name: user.name,
    TenantManager: user.tenantManager,
    Disabled: user.disabled,
    DeptId: user.deptId,
    TimeZone: user.timeZone,
    Language: user.language,
    MailAddresses: user.mailAddresses?.length ? [...user.mailAddresses] : undefined,
    PasswordHash: user.passwordHash,
    ApiKeyHash: user.apiKeyHash,
    PrivilegeGranted: user.privilegeGranted || undefined,
    LoginsNotBefore: user.loginsNotBefore,
    CreatedAt: user.createdAt,
    UpdatedAt: user.updatedAt,
  };
}

export function toUser(item: Record<string, unknown>): User {
  return {
    userId: Number(item.UserId),
    tenantId: Number(item.TenantId),
    loginId: String(item.LoginId),
    name: String(item.Name),
    tenantManager: item.TenantManager === true,
    disabled: item.Disabled === true,
    deptId: item.DeptId === undefined ? undefined : Number(item.DeptId),
    timeZone: typeof item.TimeZone === 'string' ? item.TimeZone : undefined,
    language: item.Language === 'ja' || item.Language === 'en' ? item.Language : undefined,
    mailAddresses: Array.isArray(item.MailAddresses) ? item.MailAddresses.map(String) : undefined,
    passwordHash: typeof item.PasswordHash === 'string' ? item.PasswordHash : undefined,
    apiKeyHash: typeof item.ApiKeyHash === 'string' ? item.ApiKeyHash : undefined,
    privilegeGranted: item.PrivilegeGranted === true,
    loginsNotBefore: typeof item.LoginsNotBefore === 'number' ? item.LoginsNotBefore : undefined,
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
  };
}

function fromGroup(group: Group): Record<string, unknown> {
  return {
    ...keys.group(group.groupId),
    GroupId: group.groupId,
    TenantId: group.tenantId,
    GroupName: group.groupName,
    [MEMBERS_ATTRIBUTE.user]: group.memberIds.length > 0 ? new Set(group.memberIds) : undefined,
    [MEMBERS_ATTRIBUTE.dept]: group.deptIds.length > 0 ? new Set(group.deptIds) : undefined,
    CreatedAt: group.createdAt,
    UpdatedAt: group.updatedAt,
  };
}

export function toGroup(item: Record<string, unknown>): Group {
  const ids = (set: unknown) => (set instanceof Set ? [...set].map(Number).sort((a, b) => a - b) : []);
  return {
    groupId: Number(item.GroupId),
    tenantId: Number(item.TenantId),
    groupName: String(item.GroupName),
    memberIds: ids(item[MEMBERS_ATTRIBUTE.user]),
    deptIds: ids(item[MEMBERS_ATTRIBUTE.dept]),
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
  };
}

function fromDept(dept: Dept): Record<string, unknown> {
  return {
    ...keys.dept(dept.deptId),
    DeptId: dept.deptId,
    TenantId: dept.tenantId,
    DeptCode: dept.deptCode,
    DeptName: dept.deptName,
    Disabled: dept.disabled,
    CreatedAt: dept.createdAt,
    UpdatedAt: dept.updatedAt,
  };
}

export function toDept(item: Record<string, unknown>): Dept {
  return {
    deptId: Number(item.DeptId),
    tenantId: Number(item.TenantId),
    deptCode: String(item.DeptCode ?? ''),
    deptName: String(item.DeptName),
    disabled: item.Disabled === true,
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
  };
}
