import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { table } from '../sites/store';
import { dynamo } from '../storage/clients';
import type { ItemRecord } from './model';
import { findItem, type TransactItem } from './record-repository';
import type { ColumnValue } from './view/columns';

/**
 * Upsert key claims (issue 23): concurrent upserts with the same Keys and values create one record, the
 * others update it. Matching reads the site's records, and two requests that both read before either
 * writes would both create; so a create by upsert also writes, in its own transaction, a claim item
 * keyed by the site and a digest of the key columns, their values and the View, naming the new record,
 * on condition that the claim is absent or still names the record read. The loser's transaction fails,
 * and it matches again, now finding the claimed record by a consistent read even where the index that
 * matching walks has not caught up yet.
 *
 * A claim is never moved nor released: it counts only while the record it names still exists in the
 * site and still matches the keys and the View. A record deleted, or updated to other key values, leaves
 * a stale claim that the next create by upsert replaces. Records written otherwise (create, bulkupsert,
 * import) take no claim; matching still finds them, as before.
 */
export interface UpsertClaim {
  readonly key: { readonly pk: string; readonly sk: string };
  /** The record the claim named when read, whether it still matches or not. */
  readonly holderId?: number;
  /** That record, read consistently, when it still exists. */
  readonly holder?: ItemRecord;
}

/** The claim of these key values (column name and value, the false Check keys left out) under the View. */
export async function readClaim(
  site: Site,
  values: readonly (readonly [string, ColumnValue])[],
  view: unknown,
): Promise<UpsertClaim> {
  const sorted = [...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // A digest, since key values (1,024 characters each, any number of keys) would outgrow a sort key.
  const digest = createHash('sha256')
    .update(stableJson({ keys: sorted, view: view ?? null }))
    .digest('base64url');
  const key = itemKeys.upsertClaim(site.tenantId, site.siteId, digest);
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
  const holderId = typeof result.Item?.RecordId === 'number' ? result.Item.RecordId : undefined;
  if (holderId === undefined) return { key };
  const item = await findItem(site.tenantId, holderId);
  return { key, holderId, holder: item?.kind === 'record' ? item.record : undefined };
}

/** The claim's write beside the create of `recordId`: only if nobody took it since it was read. */
export function claimWrite(claim: UpsertClaim, recordId: number): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...claim.key, RecordId: recordId },
      ...(claim.holderId === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: 'RecordId = :held',
            ExpressionAttributeValues: { ':held': claim.holderId },
          }),
    },
  };
}

/** JSON with object keys sorted, so that one View written in another order gives one digest. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, child]) => `${JSON.stringify(name)}:${stableJson(child)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
