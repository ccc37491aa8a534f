import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as batch from '../storage/batch';
import { dynamo } from '../storage/clients';
import { type Key, type QueryInput, queryAll, queryKeys as queryTableKeys } from '../storage/queries';
import { tableName } from '../storage/tables';
import { containerKeys, idOfItemKey, itemKeys } from './keys';

/** What the Items table's repositories (sites here, records in lib/items) share: the table, the id sequence. */

export type { Key } from '../storage/queries';

export const table = () => tableName('items');

/** Table keys from a query of the Items table (lib/storage/queries.ts queryKeys). */
export function queryKeys(
  input: Omit<QueryInput, 'TableName' | 'Limit'>,
  range?: { skip?: number; limit?: number },
): Promise<Key[]> {
  return queryTableKeys({ ...input, TableName: table() }, range);
}

export function batchGet(keys: readonly Key[]): Promise<Record<string, unknown>[]> {
  return batch.batchGet(table(), keys);
}

/**
 * Which of `ids` are sites or records of the tenant now: keys only, read consistently, so that an item
 * deleted before the call is never counted.
 */
export async function existingItemIds(tenantId: number, ids: readonly number[]): Promise<Set<number>> {
  const items = await batch.batchGet(
    table(),
    [...new Set(ids)].map((id) => itemKeys.item(tenantId, id)),
    { consistent: true, attributes: ['pk'] },
  );
  return new Set(items.map((item) => idOfItemKey(String(item.pk))));
}

/** Which of `ids` are sites of the tenant that are not on their way out: a few attributes, read consistently. */
export async function liveSiteIds(tenantId: number, ids: readonly number[]): Promise<Set<number>> {
  const items = await batch.batchGet(
    table(),
    [...new Set(ids)].map((id) => itemKeys.item(tenantId, id)),
    { consistent: true, attributes: ['pk', 'Kind', 'Deleting'] },
  );
  return new Set(
    items
      .filter((item) => item.Kind === 'site' && item.Deleting !== true)
      .map((item) => idOfItemKey(String(item.pk))),
  );
}

/** Deletes `keys`, 25 to a request, a few requests at a time; unprocessed ones are retried. */
export function batchDelete(keys: readonly Key[]): Promise<void> {
  return batch.batchWrite(
    table(),
    keys.map((key) => ({ DeleteRequest: { Key: key } })),
  );
}

/** Writes whole items, unconditionally, as batchDelete deletes. */
export function batchPut(items: readonly Record<string, unknown>[]): Promise<void> {
  return batch.batchWrite(
    table(),
    items.map((item) => ({ PutRequest: { Item: item } })),
  );
}

/** Sites and records draw from one sequence, as in the reference. */
export function nextItemId(): Promise<number> {
  return reserveItemIds(1);
}

/** Reserves `count` consecutive ids of the sequence at once; the first of them. */
export async function reserveItemIds(count: number): Promise<number> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: itemKeys.counter(),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'Value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.Value) - count + 1;
}

/** The query of a site's records on the `Contents` index, in id order: what sites and records both walk. */
export function recordsOf(tenantId: number, siteId: number) {
  return {
    IndexName: 'Contents',
    KeyConditionExpression: 'ContainerKey = :container',
    ExpressionAttributeValues: { ':container': containerKeys.records(tenantId, siteId) },
  };
}

/** Every item a query on the Items table finds, page by page (for small sets: a site's counters). */
export async function queryItems(input: Omit<QueryInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const item of queryAll({ ...input, TableName: table() })) items.push(item);
  return items;
}
