import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { backoff } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { type IndexPointer, pointerLocation, pointerOf } from './index-store';
import { itemKeys } from './keys';
import type { Site } from './model';
import { toSite } from './repository';
import { table as itemsTable } from './store';

/** BatchGetItem takes 100 keys at most; the pointer takes one. */
export const MAX_SITES_PER_READ = 99;

export interface LookupItems {
  readonly pointer: IndexPointer | undefined;
  /** Each site asked for, undefined when it does not exist (or is no site). */
  readonly sites: ReadonlyMap<number, Site | undefined>;
}

/**
 * The tenant's index pointer and the given sites in one consistent BatchGetItem: a warm lookup's one
 * storage call. Keys DynamoDB leaves unprocessed (under throttling) are asked again.
 */
export async function readPointerAndSites(
  tenantId: number,
  siteIds: readonly number[],
): Promise<LookupItems> {
  if (siteIds.length > MAX_SITES_PER_READ) throw new Error(`at most ${MAX_SITES_PER_READ} sites per read`);
  const index = pointerLocation(tenantId);
  const sitesTable = itemsTable();
  const keyOf = (item: Record<string, unknown>) => `${item.pk}\u0000${item.sk}`;
  const pointerKey = keyOf(index.key);
  const found = new Map<string, Record<string, unknown>>();
  let request: NonNullable<ConstructorParameters<typeof BatchGetCommand>[0]['RequestItems']> = {
    [index.table]: { Keys: [index.key], ConsistentRead: true },
    ...(siteIds.length > 0 && {
      [sitesTable]: { Keys: siteIds.map((id) => itemKeys.item(tenantId, id)), ConsistentRead: true },
    }),
  };
  for (let attempt = 0; Object.keys(request).length > 0; attempt++) {
    await backoff(attempt);
    const result = await dynamo().send(new BatchGetCommand({ RequestItems: request }));
    for (const items of Object.values(result.Responses ?? {})) {
      for (const item of items) found.set(keyOf(item), item);
    }
    request = (result.UnprocessedKeys ?? {}) as typeof request;
  }
  const sites = new Map<number, Site | undefined>();
  for (const id of siteIds) {
    const item = found.get(keyOf(itemKeys.item(tenantId, id)));
    sites.set(id, item?.Kind === 'site' ? toSite(item) : undefined);
  }
  return { pointer: pointerOf(found.get(pointerKey)), sites };
}
