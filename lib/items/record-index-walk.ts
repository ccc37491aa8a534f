import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { statusKey } from '../sites/keys';
import type { Site } from '../sites/model';
import { type Key, table } from '../sites/store';
import { dynamo } from '../storage/clients';
import type { ItemRecord } from './model';
import { recordsByKeys, statusesOf } from './record-repository';

/**
 * A walk over sites' records in the reference's default order (UpdatedTime desc, id desc) through the
 * `RecordsByStatus` index: the partitions of the Status values asked, or of every Status the site's
 * per-Status counts list, each read page by page as the walk needs it, merged by their shared sort key,
 * and the items read by key a batch at a time.
 */

interface Entry {
  readonly key: Key;
  readonly recent: string;
}

/** One index partition, read lazily in growing pages. */
class Partition {
  private buffer: Entry[] = [];
  private start: Record<string, unknown> | undefined;
  private done = false;
  private pageSize = 50;
  entriesRead = 0;

  constructor(
    private readonly indexName: string,
    private readonly keyName: string,
    private readonly keyValue: string,
    private readonly after?: string,
  ) {}

  async head(): Promise<Entry | undefined> {
    while (this.buffer.length === 0 && !this.done) await this.fetch();
    return this.buffer[0];
  }

  take(): Entry | undefined {
    return this.buffer.shift();
  }

  private async fetch(): Promise<void> {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        IndexName: this.indexName,
        KeyConditionExpression:
          this.after === undefined ? '#key = :value' : '#key = :value AND #recent > :after',
        ExpressionAttributeNames: {
          '#key': this.keyName,
          ...(this.after !== undefined && { '#recent': 'RecentKey' }),
        },
        ExpressionAttributeValues: {
          ':value': this.keyValue,
          ...(this.after !== undefined && { ':after': this.after }),
        },
        ExclusiveStartKey: this.start,
        Limit: this.pageSize,
      }),
    );
    const items = page.Items ?? [];
    this.entriesRead += items.length;
    for (const item of items) {
      this.buffer.push({ key: { pk: String(item.pk), sk: String(item.sk) }, recent: String(item.RecentKey) });
    }
    this.start = page.LastEvaluatedKey;
    this.done = !this.start;
    this.pageSize = Math.min(this.pageSize * 2, 1000);
  }
}

export interface WalkResult {
  readonly matches: ItemRecord[];
  /** Whether every candidate was walked (so `matches` holds every match). */
  readonly complete: boolean;
  /**
   * The sort key (RecentKey) of the last index entry the walk judged: a walk started after it goes on
   * where this one stopped (an export in pages). Undefined when it judged none.
   */
  readonly last?: string;
  /** Index entries and items read, for the figures. */
  readonly entriesRead: number;
  readonly itemsRead: number;
}

/**
 * The records of `sites` (limited to `statuses` when given) that `filter` keeps, in the default order,
 * until `wanted` of them are found, or all of them when `wanted` is infinite; those after the entry
 * `after` (a RecentKey) only, when given.
 */
export async function walkRecent(
  sites: readonly Site[],
  statuses: readonly number[] | undefined,
  filter: (record: ItemRecord) => boolean,
  wanted: number,
  after?: string,
): Promise<WalkResult> {
  const perSite = await Promise.all(
    sites.map(async (site) => ({ site, values: statuses ?? (await statusesOf(site)) })),
  );
  const partitions = perSite.flatMap(({ site, values }) =>
    values.map(
      (status) =>
        new Partition('RecordsByStatus', 'StatusKey', statusKey(site.tenantId, site.siteId, status), after),
    ),
  );
  const matches: ItemRecord[] = [];
  let itemsRead = 0;
  let exhausted = false;
  let last: string | undefined;
  walk: while (matches.length < wanted && !exhausted) {
    // Enough keys for what is still wanted, at least a small batch, at most one BatchGetItem each; while
    // several batches' worth is wanted (an aggregate, an export), LANES of them are read at once.
    const remaining = wanted - matches.length;
    const size = Math.max(10, Math.min(BATCH, remaining));
    const lanes = Math.max(1, Math.min(LANES, Math.ceil(remaining / BATCH)));
    const batches: Entry[][] = [];
    while (batches.length < lanes && !exhausted) {
      const batch: Entry[] = [];
      while (batch.length < size) {
        const next = await nextEntry(partitions);
        if (!next) {
          exhausted = true;
          break;
        }
        batch.push(next);
      }
      if (batch.length > 0) batches.push(batch);
    }
    const fetched = await Promise.all(batches.map((batch) => recordsByKeys(batch.map((entry) => entry.key))));
    for (const [at, batch] of batches.entries()) {
      const records = fetched[at] ?? [];
      itemsRead += records.length;
      const byKey = new Map(records.map((record) => [record.recordId, record]));
      // The batch in index order: a record changed since the index was read is judged by its item.
      for (const entry of batch) {
        if (matches.length >= wanted) {
          exhausted = false;
          break walk;
        }
        last = entry.recent;
        const record = byKey.get(Number(entry.key.pk.slice(entry.key.pk.lastIndexOf('#') + 1)));
        if (record && filter(record)) matches.push(record);
      }
    }
  }
  return {
    matches,
    complete: exhausted,
    ...(last !== undefined && { last }),
    entriesRead: partitions.reduce((sum, partition) => sum + partition.entriesRead, 0),
    itemsRead,
  };
}

/** Keys in one BatchGetItem (its limit). */
const BATCH = 100;
/**
 * BatchGetItems in flight at once when the walk wants every record: a Sum over 20,000 records made 202 of
 * them one after another. Four keep a Lambda's memory bounded (at most 4 × 16 MB of answers).
 */
const LANES = 4;

/** The next entry in the merged order of the partitions. */
async function nextEntry(partitions: readonly Partition[]): Promise<Entry | undefined> {
  let best: Partition | undefined;
  let bestHead: Entry | undefined;
  for (const partition of partitions) {
    const head = await partition.head();
    if (head && (!bestHead || head.recent < bestHead.recent)) {
      best = partition;
      bestHead = head;
    }
  }
  return best?.take();
}
