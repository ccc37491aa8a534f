import { type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The History table (lib/storage/tables.ts): a record as it was before each version up, one row per
 * version. Rows sit under the record's site (`T<tenant>#S#<site>`) and sort by record, then Ver (both
 * padded), so that one record's history is one Query on a prefix, and a site's is one Query on the key.
 */
const table = () => tableName('history');

const padded = (n: number, digits: number) => String(n).padStart(digits, '0');
const sitePk = (tenantId: number, siteId: number) => `T${tenantId}#S#${siteId}`;
const recordPrefix = (recordId: number) => `R#${padded(recordId, 15)}#V#`;

export const historyKeys = {
  version: (tenantId: number, siteId: number, recordId: number, version: number) => ({
    pk: sitePk(tenantId, siteId),
    sk: `${recordPrefix(recordId)}${padded(version, 10)}`,
  }),
};

/** The Items table's index keys, which a kept version has no use for (it is found by its own keys). */
const INDEX_ATTRIBUTES = ['ContainerKey', 'OrderKey', 'RecentKey', 'StatusKey'];

/**
 * The write that keeps `item` (a record's stored item as it was read, lib/items/record-repository.ts) as
 * the history row of its Ver, in the transaction of the update that raises it. Never overwrites: a row of
 * that version already kept means the record was changed meanwhile, and the update is retried.
 */
export function keepVersion(item: Record<string, unknown>): TransactItem {
  const kept: Record<string, unknown> = {
    ...item,
    ...historyKeys.version(
      Number(item.TenantId),
      Number(item.SiteId),
      Number(item.RecordId),
      Number(item.Version),
    ),
    Kind: 'history',
  };
  for (const name of INDEX_ATTRIBUTES) delete kept[name];
  return { Put: { TableName: table(), Item: kept, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** A record's kept versions, newest first, read consistently (a version just kept is there). */
export async function versionItems(
  tenantId: number,
  siteId: number,
  recordId: number,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const item of queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(tenantId, siteId), ':prefix': recordPrefix(recordId) },
    ScanIndexForward: false,
    ConsistentRead: true,
  })) {
    items.push(item);
  }
  return items;
}

/** Every kept version of a site's records, newest record first and each record's newest version first. */
export function siteVersionItems(tenantId: number, siteId: number): AsyncGenerator<Record<string, unknown>> {
  return queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': sitePk(tenantId, siteId) },
    ScanIndexForward: false,
  });
}

/**
 * Sets (or, without `expiresAt`, clears) the TTL of a record's kept versions: a record in the recycle bin
 * takes its history with it when it expires (lib/items/recycle-bin.ts); a restored one keeps it for good.
 */
export async function expireVersions(
  tenantId: number,
  siteId: number,
  recordId: number,
  expiresAt: number | undefined,
): Promise<void> {
  const keys = (await versionItems(tenantId, siteId, recordId)).map((item) => ({ pk: item.pk, sk: item.sk }));
  for (let start = 0; start < keys.length; start += 16) {
    await Promise.all(
      keys.slice(start, start + 16).map((Key) =>
        dynamo()
          .send(
            new UpdateCommand({
              TableName: table(),
              Key,
              ...(expiresAt === undefined
                ? { UpdateExpression: 'REMOVE ExpiresAt' }
                : {
                    UpdateExpression: 'SET ExpiresAt = :at',
                    ExpressionAttributeValues: { ':at': expiresAt },
                  }),
              ConditionExpression: 'attribute_exists(pk)',
            }),
          )
          .catch((error: unknown) => {
            // A version the TTL took meanwhile is no longer there to change.
            if (!isConditionFailure(error)) throw error;
          }),
      ),
    );
  }
}

/** Deletes a record's kept versions: the record is gone for good (purged, or expired from the bin). */
export async function deleteVersions(tenantId: number, siteId: number, recordId: number): Promise<number> {
  const keys = (await versionItems(tenantId, siteId, recordId)).map((item) => ({ pk: item.pk, sk: item.sk }));
  await batchWrite(
    table(),
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
  return keys.length;
}
