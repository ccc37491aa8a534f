import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequestError, NotFoundError } from '../errors';
import type { ItemRecord } from '../items/model';
import { fromRecord } from '../items/record-repository';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { fromSite } from '../sites/repository';
import { batchDelete, batchPut, type Key, table } from '../sites/store';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { assertItemSize } from '../storage/queries';

/**
 * Storage of an import (lib/packages/import.ts). The records and their counts go first: until
 * their sites exist nothing reaches them (a record is read through its site). Then the whole tree of sites
 * appears in one transaction. A failure before that removes the records again; a crash leaves them
 * unreachable. So no failure, not even a crash, makes part of an import visible.
 */

// DynamoDB's limit on one transaction's total size; the request itself may carry up to 6 MB.
const MAX_TRANSACTION_BYTES = 4_000_000;

/** The records of sites yet to be created, and each site's record count; the keys written. */
export async function stageRecords(records: readonly ItemRecord[]): Promise<Key[]> {
  const counts = new Map<string, { tenantId: number; siteId: number; count: number }>();
  for (const record of records) {
    const key = `${record.tenantId}/${record.siteId}`;
    const entry = counts.get(key) ?? { tenantId: record.tenantId, siteId: record.siteId, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  const items = [
    ...records.map(fromRecord),
    ...[...counts.values()].map(({ tenantId, siteId, count }) => ({
      ...itemKeys.recordCount(tenantId, siteId),
      Count: count,
    })),
  ];
  for (const item of items) assertItemSize(item);
  const keys = items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
  try {
    await batchPut(items);
  } catch (error) {
    await batchDelete(keys);
    throw error;
  }
  return keys;
}

/** Removes what stageRecords wrote, when the sites could not be created. */
export function unstageRecords(keys: readonly Key[]): Promise<void> {
  return batchDelete(keys);
}

/**
 * Creates the tree of sites (parents first) in one transaction, with the check that the parent they go
 * under (unless the top level) still exists and is not on its way out: the tree appears whole or not at
 * all.
 */
export async function insertSiteTree(sites: readonly Site[], parentId: number): Promise<void> {
  const items = sites.map(fromSite);
  for (const item of items) assertItemSize(item);
  if (Buffer.byteLength(JSON.stringify(items)) > MAX_TRANSACTION_BYTES) {
    throw new BadRequestError('the package is larger than one transaction');
  }
  const [root] = sites;
  const parentCheck =
    root && parentId !== 0
      ? [
          {
            ConditionCheck: {
              TableName: table(),
              Key: itemKeys.item(root.tenantId, parentId),
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Deleting)',
            },
          },
        ]
      : [];
  const puts = items.map((item) => ({
    Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
  }));
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: [...parentCheck, ...puts] }));
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(`parent ${parentId} changed or vanished`);
    throw error;
  }
}
