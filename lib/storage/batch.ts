import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './clients';
import type { Key } from './queries';

export type WriteRequest =
  | { readonly DeleteRequest: { readonly Key: Record<string, unknown> } }
  | { readonly PutRequest: { readonly Item: Record<string, unknown> } };

/**
 * BatchWriteItem for any number of requests: 25 to a request, a few requests at a time, and again, after a
 * growing pause, for what DynamoDB left unprocessed.
 */
export async function batchWrite(table: string, requests: readonly WriteRequest[]): Promise<void> {
  for (const group of chunk(chunk(requests, 25), 4)) {
    await Promise.all(
      group.map(async (part) => {
        let pending = part;
        for (let attempt = 0; pending.length > 0; attempt++) {
          await backoff(attempt);
          const result = await dynamo().send(
            new BatchWriteCommand({ RequestItems: { [table]: [...pending] } }),
          );
          pending = (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
        }
      }),
    );
  }
}

/** No pause before the first attempt; then 100 ms, 200 ms, … up to 2 s. */
export async function backoff(attempt: number): Promise<void> {
  if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 2_000)));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}

export interface BatchGetOptions {
  /** Strongly consistent reads: what a write acknowledged before the read is seen. */
  readonly consistent?: boolean;
  /** Only these top-level attributes of each item. */
  readonly attributes?: readonly string[];
}

/** The items of `keys` that exist, in no particular order; unprocessed keys are retried. */
export async function batchGet(
  table: string,
  keys: readonly Key[],
  options: BatchGetOptions = {},
): Promise<Record<string, unknown>[]> {
  const names = options.attributes?.map((name, at) => [`#a${at}`, name] as const);
  const pages = await Promise.all(
    chunk(keys, 100).map(async (part) => {
      const items: Record<string, unknown>[] = [];
      let pending: Key[] = [...part];
      for (let attempt = 0; pending.length > 0; attempt++) {
        await backoff(attempt);
        const result = await dynamo().send(
          new BatchGetCommand({
            RequestItems: {
              [table]: {
                Keys: pending,
                ...(options.consistent && { ConsistentRead: true }),
                ...(names && {
                  ProjectionExpression: names.map(([alias]) => alias).join(', '),
                  ExpressionAttributeNames: Object.fromEntries(names),
                }),
              },
            },
          }),
        );
        items.push(...(result.Responses?.[table] ?? []));
        pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
      }
      return items;
    }),
  );
  return pages.flat();
}
