import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { itemKeys, RECORD_PERMISSIONS } from '../sites/keys';
import type { Site } from '../sites/model';
import { queryItems, table } from '../sites/store';
import type { ItemRecord } from './model';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Storage of record permission rows beside the record's site (keys.ts recordPermissions): the record item
 * holds its rows for the checks on one record; this copy lets a list find, with one query per site, the few
 * records a caller may read without site Read. The record writes carry these items in their transactions.
 */

/** The write that keeps the copy equal to `after`'s rows (none when they did not change). */
export function permissionRowWrites(
  before: ItemRecord | undefined,
  after: ItemRecord | undefined,
): TransactItem[] {
  const old = before?.permissions ?? [];
  const rows = after?.permissions ?? [];
  if (old.length === rows.length && old.every((row, index) => row === rows[index])) return [];
  const record = (after ?? before) as ItemRecord;
  const Key = itemKeys.recordPermissions(record.tenantId, record.siteId, record.recordId);
  if (rows.length === 0) return [{ Delete: { TableName: table(), Key } }];
  return [
    {
      Put: {
        TableName: table(),
        Item: { ...Key, Kind: 'recordPermissions', RecordId: record.recordId, Permissions: [...rows] },
      },
    },
  ];
}

export interface RecordRows {
  readonly recordId: number;
  readonly rows: readonly string[];
}

/** Every record of the site that has rows of its own, with them, in id order. */
export async function recordsWithRows(site: Pick<Site, 'tenantId' | 'siteId'>): Promise<RecordRows[]> {
  const items = await queryItems({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': itemKeys.item(site.tenantId, site.siteId).pk,
      ':prefix': RECORD_PERMISSIONS,
    },
  });
  return items.map((item) => ({
    recordId: Number(item.RecordId),
    rows: Array.isArray(item.Permissions) ? item.Permissions.map(String) : [],
  }));
}
