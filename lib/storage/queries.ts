import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { BadRequestError } from '../errors';
import { dynamo } from './clients';

/** A table's primary key: every table of the project has a string `pk` and `sk`. */
export type Key = { readonly pk: string; readonly sk: string };

export type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey'>;

/** The items of a query, page after page (ExclusiveStartKey), as they arrive. */
export async function* queryAll(input: QueryInput): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Table keys from a query, page by page, up to `limit`; `skip` entries first. */
export async function queryKeys(
  input: Omit<QueryInput, 'Limit'>,
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

// DynamoDB's item limit is 400 KB; refusing a little below it turns a would-be 500 into the caller's 400.
const MAX_ITEM_BYTES = 380_000;

export function assertItemSize(item: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(item)) > MAX_ITEM_BYTES) throw new BadRequestError('item too large');
}
