import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequestError } from '../http/errors';
import { backoff, batchWrite, chunk } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { tableName } from '../storage/tables';
import { itemKeys } from './keys';

/** What the Items repositories share: the table, the id sequence, paged key queries and batches. */

export type Key = { readonly pk: string; readonly sk: string };

export const table = () => tableName('items');

/** Sites and records draw from one sequence, as in the reference. */
export function nextItemId(): Promise<number> {
  return reserveItemIds(1);
}

/** A condition of the write (or of a transaction's part) failed: the item changed, vanished or exists. */
export function isConditionFailure(error: unknown): boolean {
  if (error instanceof ConditionalCheckFailedException) return true;
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')
  );
}

// DynamoDB's item limit is 400 KB; refusing a little below it turns a would-be 500 into the caller's 400.
const MAX_ITEM_BYTES = 380_000;

export function assertItemSize(item: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(item)) > MAX_ITEM_BYTES) throw new BadRequestError('item too large');
}

/** Table keys from a query, page by page (ExclusiveStartKey), up to `limit`; `skip` entries first. */
export async function queryKeys(
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  range: { skip?: number; limit?: number } = {},
): Promise<Key[]> {
  const keys: Key[] = [];
  let skip = range.skip ?? 0;
  const limit = range.limit ?? Number.POSITIVE_INFINITY;
  let start: Record<string, unknown> | undefined;
  do {
    const wanted = skip + limit - keys.length;
    const page = await dynamo().send(
      new QueryCommand({
        ...input,
        TableName: table(),
        ExclusiveStartKey: start,
        ...(Number.isFinite(wanted) && { Limit: Math.min(wanted, 1000) }),
      }),
    );
    for (const item of page.Items ?? []) {
      if (skip > 0) skip--;
      else if (keys.length < limit) keys.push({ pk: String(item.pk), sk: String(item.sk) });
    }
    start = page.LastEvaluatedKey;
  } while (start && keys.length < limit);
  return keys;
}

/** Every item a query on the table finds, page by page (for small sets: a site's counters). */
export async function queryItems(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({ ...input, TableName: table(), ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The items of `keys` that exist, in no particular order; unprocessed keys are retried. */
export async function batchGet(keys: readonly Key[]): Promise<Record<string, unknown>[]> {
  const chunks = chunk(keys, 100);
  const pages = await Promise.all(
    chunks.map(async (part) => {
      const items: Record<string, unknown>[] = [];
      let pending: Key[] = [...part];
      for (let attempt = 0; pending.length > 0; attempt++) {
        await backoff(attempt);
        const result = await dynamo().send(
          new BatchGetCommand({ RequestItems: { [table()]: { Keys: pending } } }),
        );
        items.push(...(result.Responses?.[table()] ?? []));
        pending = (result.UnprocessedKeys?.[table()]?.Keys ?? []) as Key[];
      }
      return items;
    }),
  );
  return pages.flat();
}

/** Deletes `keys`, 25 to a request, a few requests at a time; unprocessed ones are retried. */
export function batchDelete(keys: readonly Key[]): Promise<void> {
  return batchWrite(
    table(),
    keys.map((key) => ({ DeleteRequest: { Key: key } })),
  );
}

/** Writes whole items, unconditionally, as batchDelete deletes. */
export function batchPut(items: readonly Record<string, unknown>[]): Promise<void> {
  return batchWrite(
    table(),
    items.map((item) => ({ PutRequest: { Item: item } })),
  );
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
