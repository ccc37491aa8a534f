import { batchGet } from '../storage/batch';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';
import { type DirectoryKind, accountKeys as keys } from './keys';
import type { Dept, Group, User } from './model';
import { toDept, toGroup, toUser } from './repository';

/**
 * The list reads of a tenant's users, groups and depts: one Query of the tenant's directory entries
 * (lib/accounts/keys.ts, written with the accounts themselves), then the accounts by key. An entry whose
 * account is gone, or belongs to another tenant, lists nothing.
 */

async function directoryIds(tenantId: number, kind: DirectoryKind): Promise<number[]> {
  const ids: number[] = [];
  for await (const item of queryAll({
    TableName: tableName('accounts'),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
    ExpressionAttributeValues: { ':pk': keys.tenant(tenantId).pk, ':kind': `${kind}#` },
    ProjectionExpression: 'Id',
  })) {
    ids.push(Number(item.Id));
  }
  return ids;
}

async function listed<T extends { readonly tenantId: number }>(
  tenantId: number,
  kind: DirectoryKind,
  key: (id: number) => { pk: string; sk: string },
  from: (item: Record<string, unknown>) => T,
): Promise<T[]> {
  const ids = await directoryIds(tenantId, kind);
  const items = await batchGet(tableName('accounts'), ids.map(key));
  return items.map(from).filter((account) => account.tenantId === tenantId);
}

export function tenantUsers(tenantId: number): Promise<User[]> {
  return listed(tenantId, 'USER', keys.user, toUser);
}

export function tenantGroups(tenantId: number): Promise<Group[]> {
  return listed(tenantId, 'GROUP', keys.group, toGroup);
}

export function tenantDepts(tenantId: number): Promise<Dept[]> {
  return listed(tenantId, 'DEPT', keys.dept, toDept);
}
