import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { backoff, batchWrite, chunk } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';
import { mapLimit } from './concurrency';
import { bucketOf, encodeSegment, idsInSegment, SEGMENT_BUCKETS } from './segment-codec';
import { KEYING } from './text';

/**
 * The search index's rows (table SearchIndex), every key under the tenant:
 * - a document per indexed site or record: `T<tenant>#DOC` / its 15-digit id, holding the normalised full
 *   text, the source's Ver and `Pending` while its postings are being written; and the directory of them
 *   all, packed (lib/search/directory.ts);
 * - a posting per character n-gram and block of 4,096 ids: `T<tenant>#G#<gram>` / `B<block>`, whose number
 *   set `Ids` holds the ids of that block whose text has the gram, kept by the live path. ADD and DELETE of
 *   set members are idempotent, and a record's change touches only the postings of the grams it gained
 *   or lost;
 * - a segment per hash bucket of n-grams and rebuild page: `T<tenant>#S<bucket>` / `<site>.P<after id>`,
 *   holding for each gram of the bucket the page's ids that have it (lib/search/segment-codec.ts), written
 *   whole, all SEGMENT_BUCKETS rows of the page, 25 to a request: thousands of records cost
 *   SEGMENT_BUCKETS rows, not one per gram, and the same page done again writes the same rows. Nothing
 *   removes an id from a segment but the next rebuild of its page: the directory names the one segment
 *   that stands for each id, and whether its postings are exact;
 * - a page end per site and rebuild page: `T<tenant>#PAGE` / `<site>.P<after id>`, the highest id its
 *   segment rows held when last written, so that the next rebuild's page never ends before it.
 */

const table = () => tableName('searchIndex');
/** Ids per block: of live postings and of directory rows. */
const BLOCK = 4096;
/** The Ver of a deleted record's tombstone: no late write of an older version can bring it back. */
export const DELETED_VER = Number.MAX_SAFE_INTEGER;

export interface SearchDocument {
  readonly id: number;
  readonly siteId: number;
  readonly kind: 'site' | 'record';
  readonly title: string;
  /** The stored full text (lib/search/text.ts storedText). Empty for a tombstone. */
  readonly text: string;
  readonly ver: number;
  readonly updatedAt: number;
  readonly pending?: boolean;
  /**
   * The word cutting (lib/search/text.ts KEYING) of the writer that stored the document; a document
   * written is always stamped with the current one. Undefined: stored before tokens were cut by
   * Intl.Segmenter, when a text's token keys were its pieces between spaces only.
   */
  readonly keying?: string;
  /**
   * Not stored: the version of a record restored from the recycle bin (lib/items/recycle-bin.ts), which
   * replaces its tombstone where any other write is refused by it.
   */
  readonly restored?: boolean;
}

/** Whether `doc` may replace a stored version `storedVer` it does not exceed: a restored record its tombstone. */
export const revives = (storedVer: number, doc: SearchDocument) =>
  doc.restored === true && storedVer === DELETED_VER;

const docPk = (tenantId: number) => `T${tenantId}#DOC`;
const docSk = (id: number) => String(id).padStart(15, '0');
const gramPk = (tenantId: number, gram: string) => `T${tenantId}#G#${gram}`;
const segmentPk = (tenantId: number, bucket: number) => `T${tenantId}#S${bucket}`;

export const blockOf = (id: number) => Math.floor(id / BLOCK);

/**
 * The documents of `ids` that exist (tombstones included), read consistently; `textsOnly`: without their
 * titles, for checking texts.
 */
export async function getDocuments(
  tenantId: number,
  ids: readonly number[],
  textsOnly = false,
): Promise<Map<number, SearchDocument>> {
  const found = new Map<number, SearchDocument>();
  await Promise.all(
    chunk([...new Set(ids)], 100).map(async (part) => {
      let pending: Record<string, unknown>[] = part.map((id) => ({ pk: docPk(tenantId), sk: docSk(id) }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        await backoff(attempt);
        const result = await dynamo().send(
          new BatchGetCommand({
            RequestItems: {
              [table()]: {
                Keys: pending,
                ConsistentRead: true,
                ...(textsOnly && {
                  ProjectionExpression: 'Id, SiteId, #text, Ver, UpdatedAt',
                  ExpressionAttributeNames: { '#text': 'Text' },
                }),
              },
            },
          }),
        );
        for (const item of result.Responses?.[table()] ?? []) found.set(Number(item.Id), toDocument(item));
        pending = result.UnprocessedKeys?.[table()]?.Keys ?? [];
      }
    }),
  );
  return found;
}

/**
 * Writes `doc` unless a newer version of it is stored (a higher Ver); false when one is. The same version
 * may be written again: a redelivered change or a page done twice.
 */
export async function putDocument(tenantId: number, doc: SearchDocument): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: fromDocument(tenantId, doc),
        ...(doc.restored
          ? {
              ConditionExpression: 'attribute_not_exists(pk) OR Ver <= :ver OR Ver = :deleted',
              ExpressionAttributeValues: { ':ver': doc.ver, ':deleted': DELETED_VER },
            }
          : {
              ConditionExpression: 'attribute_not_exists(pk) OR Ver <= :ver',
              ExpressionAttributeValues: { ':ver': doc.ver },
            }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * putDocument for many: 100 to a transaction, each put under the same condition; a transaction that a
 * newer stored version cancels is done again one put at a time. The ids not written.
 */
export async function putDocuments(tenantId: number, docs: readonly SearchDocument[]): Promise<Set<number>> {
  const refused = new Set<number>();
  await mapLimit(chunk(docs, 100), 4, async (part) => {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: part.map((doc) => ({
            Put: {
              TableName: table(),
              Item: fromDocument(tenantId, doc),
              ConditionExpression: 'attribute_not_exists(pk) OR Ver <= :ver',
              ExpressionAttributeValues: { ':ver': doc.ver },
            },
          })),
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      await mapLimit(part, 16, async (doc) => {
        if (!(await putDocument(tenantId, doc))) refused.add(doc.id);
      });
    }
  });
  return refused;
}

/** Clears `Pending` once the postings of exactly this version and text are written. */
export async function settleDocument(tenantId: number, doc: SearchDocument): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: docPk(tenantId), sk: docSk(doc.id) },
        UpdateExpression: 'REMOVE Pending',
        ConditionExpression: 'Ver = :ver AND #text = :text',
        ExpressionAttributeNames: { '#text': 'Text' },
        ExpressionAttributeValues: { ':ver': doc.ver, ':text': doc.text },
      }),
    );
  } catch (error) {
    // A newer version was written meanwhile: its own writer settles it.
    if (!isConditionFailure(error)) throw error;
  }
}

/** Adds (or removes) `ids` to (from) the posting of `gram` in their block: ids of one block only. */
export async function updatePosting(
  tenantId: number,
  gram: string,
  block: number,
  ids: ReadonlySet<number>,
  action: 'ADD' | 'DELETE',
): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: gramPk(tenantId, gram), sk: `B${block}` },
      UpdateExpression: `${action} Ids :ids`,
      ExpressionAttributeValues: { ':ids': new Set(ids) },
    }),
  );
}

/** Writes a rebuild page's segments whole (see above): each gram's `ids` ascending. */
export async function putSegments(
  tenantId: number,
  segment: string,
  postings: ReadonlyMap<string, readonly number[]>,
): Promise<number> {
  const buckets = new Map<number, [string, readonly number[]][]>();
  for (const entry of postings) {
    const bucket = bucketOf(entry[0]);
    const list = buckets.get(bucket);
    if (list) list.push(entry);
    else buckets.set(bucket, [entry]);
  }
  // Every bucket, the empty ones deleted: a gram the block no longer has must not stay in an older row.
  await batchWrite(
    table(),
    Array.from({ length: SEGMENT_BUCKETS }, (_, bucket) => {
      const entries = buckets.get(bucket);
      const key = { pk: segmentPk(tenantId, bucket), sk: segment };
      return entries
        ? { PutRequest: { Item: { ...key, Packed: encodeSegment(entries) } } }
        : { DeleteRequest: { Key: key } };
    }),
  );
  return SEGMENT_BUCKETS;
}

/** The ids of one n-gram's postings: the live ones, and those of each rebuild segment by its site. */
export interface GramPostings {
  readonly live: Set<number>;
  readonly segments: { readonly siteId: number; readonly segment: number; readonly ids: readonly number[] }[];
}

/**
 * Every id whose postings (live blocks and rebuild segments) hold `gram`. A segment row's key names its
 * site and page (`<site>.P<after id>`); rows of an older layout (`<site>.<after id>`) are left out, as no
 * directory entry counts them (lib/search/directory.ts).
 */
export async function postingIds(tenantId: number, gram: string): Promise<GramPostings> {
  const live = new Set<number>();
  const segments: GramPostings['segments'] = [];
  const readLive = async () => {
    for await (const item of rowsOf(gramPk(tenantId, gram))) {
      for (const id of (item.Ids as Set<number> | undefined) ?? []) live.add(id);
    }
  };
  const readSegments = async () => {
    for await (const item of rowsOf(segmentPk(tenantId, bucketOf(gram)))) {
      const key = /^(\d+)\.P(\d+)$/.exec(String(item.sk));
      if (key && item.Packed instanceof Uint8Array) {
        const segment = segmentNumber(Number(key[2]));
        segments.push({ siteId: Number(key[1]), segment, ids: idsInSegment(item.Packed, gram) });
      }
    }
  };
  await Promise.all([readLive(), readSegments()]);
  return { live, segments };
}

const pageEndPk = (tenantId: number) => `T${tenantId}#PAGE`;

/**
 * The highest id that the segment rows of site `siteId`'s page after `afterId` held when last written;
 * undefined when no rebuild recorded it (lib/search/rebuild.ts: a page never ends before it).
 */
export async function segmentPageEnd(
  tenantId: number,
  siteId: number,
  afterId: number,
): Promise<number | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: table(),
      Key: { pk: pageEndPk(tenantId), sk: segmentKey(siteId, afterId) },
      ConsistentRead: true,
    }),
  );
  return Item ? Number(Item.Last) : undefined;
}

/** Records where a page's segment rows end, once they are written. */
export async function putSegmentPageEnd(
  tenantId: number,
  siteId: number,
  afterId: number,
  lastId: number,
): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { pk: pageEndPk(tenantId), sk: segmentKey(siteId, afterId), Last: lastId },
    }),
  );
}

/** The key of a site's rebuild segment of the page after `afterId`, and its number in the directory. */
export const segmentKey = (siteId: number, afterId: number) => `${siteId}.P${afterId}`;
export const segmentNumber = (afterId: number) => afterId + 1;

/** Every row of the partition `pk`, page after page. */
const rowsOf = (pk: string) =>
  queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
  });

/**
 * One page of the tenant's documents in id order, after `afterId`, without their texts (so that a page of
 * thousands fits DynamoDB's 1 MB a query): for the rebuild's sweep of deleted items.
 */
export async function documentPage(
  tenantId: number,
  afterId: number,
  limit: number,
): Promise<{ documents: Omit<SearchDocument, 'text' | 'title' | 'kind'>[]; lastId?: number }> {
  const page = await dynamo().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: { ':pk': docPk(tenantId), ':after': docSk(afterId) },
      ProjectionExpression: 'Id, SiteId, Ver, UpdatedAt',
      Limit: limit,
    }),
  );
  const documents = (page.Items ?? []).map((item) => ({
    id: Number(item.Id),
    siteId: Number(item.SiteId),
    ver: Number(item.Ver),
    updatedAt: Number(item.UpdatedAt),
  }));
  return { documents, lastId: page.LastEvaluatedKey ? documents.at(-1)?.id : undefined };
}

function fromDocument(tenantId: number, doc: SearchDocument): Record<string, unknown> {
  return {
    pk: docPk(tenantId),
    sk: docSk(doc.id),
    Id: doc.id,
    SiteId: doc.siteId,
    Kind: doc.kind,
    Title: doc.title,
    Text: doc.text,
    Ver: doc.ver,
    UpdatedAt: doc.updatedAt,
    Pending: doc.pending || undefined,
    Keying: KEYING,
  };
}

function toDocument(item: Record<string, unknown>): SearchDocument {
  return {
    id: Number(item.Id),
    siteId: Number(item.SiteId),
    kind: item.Kind === 'site' ? 'site' : 'record',
    title: String(item.Title ?? ''),
    text: String(item.Text ?? ''),
    ver: Number(item.Ver),
    updatedAt: Number(item.UpdatedAt),
    pending: item.Pending === true,
    ...(typeof item.Keying === 'string' && { keying: item.Keying }),
  };
}
