import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentChangeError, NotFoundError } from '../errors';
import type { ItemRecord } from '../items/model';
import {
  bulkCreation,
  isPlainCreation,
  type RecordWrite,
  recordsByKeys,
  type TransactItem,
  writeRecords,
} from '../items/record-repository';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { batchWrite } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { failedConditions } from '../storage/conditions';
import { tableName } from '../storage/tables';

/**
 * Writes a page of an import. Plain new records (most of an import) go by BatchWriteItem, 25 to a request,
 * after one transaction that moves the site's counts for all of them; the rest (updates, conditional on the
 * record's Ver as planned; records with NoDuplication values) in transactions (writeRecords).
 *
 * A background task's page written again writes nothing twice: its counts move in one transaction with a
 * marker row of the page in the Tasks table (`claim`), put only if absent, so a page redone finds its
 * marker and does not move them again; its new records' ids were fixed at staging and no one else writes
 * them, so a redone page puts only those not stored yet; and a transaction of updates that an earlier
 * attempt wrote fails on its Vers, after which the records show which writes are in (their Ver and time
 * are the planned ones) and only the others are written. A record that someone else changed since the
 * planning fails the page.
 */

/** Parallel BatchWriteItem streams of a page (each runs 4 requests of 25 at a time). */
const WRITERS = 4;

export interface PageClaim {
  readonly taskId: string;
  readonly page: number;
}

export async function writePage(
  site: Site,
  writes: readonly RecordWrite[],
  claim?: PageClaim,
): Promise<void> {
  const plain = writes.filter(isPlainCreation);
  const others = writes.filter((write) => !isPlainCreation(write));
  if (plain.length > 0) {
    const { items, counts } = bulkCreation(
      site,
      plain.map(({ after }) => after),
    );
    const fresh = await moveCounts(counts, claim);
    const stored = fresh ? new Set<number>() : await storedIds(plain.map(({ after }) => after));
    const missing = items.filter((item) => !stored.has(Number(item.RecordId)));
    const requests = missing.map((Item) => ({ PutRequest: { Item } }));
    const share = Math.ceil(requests.length / WRITERS);
    await Promise.all(
      Array.from({ length: WRITERS }, (_, at) =>
        batchWrite(tableName('items'), requests.slice(at * share, (at + 1) * share)),
      ),
    );
  }
  await writeTransacted(site, others);
}

/** The page's marker keys in the Tasks table, removed when the task ends. */
export const markerKey = (claim: PageClaim) => ({ pk: `TASK#${claim.taskId}`, sk: `PAGE#${claim.page}` });

/** Moves the counts (with the page's marker, if any); false when the marker shows they moved already. */
async function moveCounts(counts: TransactItem[], claim: PageClaim | undefined): Promise<boolean> {
  const marker: TransactItem[] = claim
    ? [
        {
          Put: {
            TableName: tableName('tasks'),
            Item: markerKey(claim),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]
    : [];
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: [...marker, ...counts] }));
    return true;
  } catch (error) {
    const failed = failedConditions(error);
    if (claim && failed.length === 1 && failed[0] === 0) return false;
    if (failed.length > 0) throw new NotFoundError('the site vanished or is being deleted');
    throw error;
  }
}

/** Removes the markers of a task's pages. */
export async function dropMarkers(taskId: string, pages: number): Promise<void> {
  const keys = Array.from({ length: pages }, (_, page) => markerKey({ taskId, page }));
  await batchWrite(
    tableName('tasks'),
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
}

async function storedIds(records: readonly ItemRecord[]): Promise<Set<number>> {
  const keys = records.map((record) => itemKeys.item(record.tenantId, record.recordId));
  return new Set((await recordsByKeys(keys)).map((record) => record.recordId));
}

async function writeTransacted(site: Site, writes: readonly RecordWrite[]): Promise<void> {
  try {
    await writeRecords(site, writes);
    return;
  } catch (error) {
    if (!(error instanceof ConcurrentChangeError)) throw error;
  }
  const current = new Map(
    (await recordsByKeys(writes.map(({ after }) => itemKeys.item(after.tenantId, after.recordId)))).map(
      (record) => [record.recordId, record],
    ),
  );
  const pending = writes.filter(({ after }) => !written(current.get(after.recordId), after));
  for (const { before, after } of pending) {
    const stored = current.get(after.recordId);
    if (before ? stored?.ver !== before.ver : stored !== undefined)
      throw new ConcurrentChangeError(`record ${after.recordId} changed since the import was planned`);
  }
  await writeRecords(site, pending);
}

function written(stored: ItemRecord | undefined, after: ItemRecord): boolean {
  return stored !== undefined && stored.ver === after.ver && stored.updatedAt === after.updatedAt;
}
