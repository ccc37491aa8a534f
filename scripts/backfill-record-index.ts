import { PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { itemKeys, recentKey, statusKey } from '../lib/sites/keys';
import { dynamo } from '../lib/storage/clients';
import { tableName } from '../lib/storage/tables';

/**
 * One-off migration for Items tables written before the RecordsByStatus index: gives every record its
 * StatusKey and RecentKey and rewrites each site's per-Status counts from what it finds. Run it with
 * writes stopped (it scans the table, which no request path may do):
 * `KIROKU_TABLE_ITEMS=<table> KIROKU_DYNAMODB_ENDPOINT=<endpoint> node --import tsx scripts/backfill-record-index.ts`
 */

const table = tableName('items');
const counts = new Map<string, { tenantId: number; siteId: number; status: number; count: number }>();
let start: Record<string, unknown> | undefined;
let records = 0;
do {
  const page = await dynamo().send(
    new ScanCommand({
      TableName: table,
      FilterExpression: 'Kind = :record',
      ExpressionAttributeValues: { ':record': 'record' },
      ExclusiveStartKey: start,
    }),
  );
  for (const item of page.Items ?? []) {
    const tenantId = Number(item.TenantId);
    const siteId = Number(item.SiteId);
    const status = typeof item.Status === 'number' ? item.Status : 0;
    await dynamo().send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET StatusKey = :status, RecentKey = :recent',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':status': statusKey(tenantId, siteId, status),
          ':recent': recentKey(Number(item.UpdatedAt), Number(item.RecordId)),
        },
      }),
    );
    const key = `${tenantId}/${siteId}/${status}`;
    const entry = counts.get(key) ?? { tenantId, siteId, status, count: 0 };
    entry.count++;
    counts.set(key, entry);
    records++;
  }
  start = page.LastEvaluatedKey;
} while (start);
for (const { tenantId, siteId, status, count } of counts.values()) {
  await dynamo().send(
    new PutCommand({
      TableName: table,
      Item: { ...itemKeys.statusCount(tenantId, siteId, status), Count: count },
    }),
  );
}
console.log(`${records} records indexed, ${counts.size} per-Status counts written`);
