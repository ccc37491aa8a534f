import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';
import { mapLimit } from './concurrency';
import { type DirectoryEntry, decodeDirectory, encodeDirectory } from './directory-codec';
import { blockOf } from './index-store';

/**
 * The tenant's search directory (table SearchIndex, `T<tenant>#DIR` / `B<block>`): per block of 4,096 ids,
 * one packed row of what a search needs of every indexed document besides its postings: its site, its
 * UpdatedTime, its version and whether its postings are exact (lib/search/directory-codec.ts). A search
 * reads it whole and so counts, scopes and orders newest first without reading a document; only the
 * page it answers is read. Rows are changed read-modify-write under a revision (conditional put), and
 * each entry only by a change of the same or a newer version, so that writers racing (the live path, a
 * rebuild page computed from an older read) never put an older state over a newer one.
 */

export type { DirectoryEntry } from './directory-codec';

const table = () => tableName('searchIndex');
const pk = (tenantId: number) => `T${tenantId}#DIR`;
const sk = (block: number) => `B${String(block).padStart(10, '0')}`;
const CONCURRENCY = 8;

/** Every entry of the tenant's directory, deleted ones included, read consistently. */
export async function readDirectory(tenantId: number): Promise<Map<number, DirectoryEntry>> {
  const entries = new Map<number, DirectoryEntry>();
  const rows = queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk(tenantId) },
    ConsistentRead: true,
  });
  for await (const item of rows) {
    if (item.Packed instanceof Uint8Array) decodeDirectory(item.Packed, (id, e) => entries.set(id, e));
  }
  return entries;
}

/**
 * The new entry of an id given its stored one, or undefined to leave it. Called again on a retry, with
 * what is stored then.
 */
export type EntryChange = (stored: DirectoryEntry | undefined) => DirectoryEntry | undefined;

/** Applies `changes` (by id), one conditional write per block touched. */
export async function updateDirectory(
  tenantId: number,
  changes: ReadonlyMap<number, EntryChange>,
): Promise<void> {
  const byBlock = new Map<number, [number, EntryChange][]>();
  for (const change of changes) {
    const block = blockOf(change[0]);
    const list = byBlock.get(block);
    if (list) list.push(change);
    else byBlock.set(block, [change]);
  }
  await mapLimit([...byBlock], CONCURRENCY, ([block, list]) => updateBlock(tenantId, block, list));
}

async function updateBlock(
  tenantId: number,
  block: number,
  changes: readonly [number, EntryChange][],
): Promise<void> {
  const key = { pk: pk(tenantId), sk: sk(block) };
  for (;;) {
    const row = await dynamo().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
    const rev = Number(row.Item?.Rev ?? 0);
    const entries = new Map<number, DirectoryEntry>();
    if (row.Item?.Packed instanceof Uint8Array)
      decodeDirectory(row.Item.Packed, (id, e) => entries.set(id, e));
    let changed = false;
    for (const [id, change] of changes) {
      const stored = entries.get(id);
      const next = change(stored);
      // The same entry again (a page done twice, a redelivered change) writes nothing.
      if (next && !(stored && sameEntry(stored, next))) {
        entries.set(id, next);
        changed = true;
      }
    }
    if (!changed) return;
    try {
      await dynamo().send(
        new PutCommand({
          TableName: table(),
          Item: { ...key, Packed: encodeDirectory(entries), Rev: rev + 1 },
          ConditionExpression: rev === 0 ? 'attribute_not_exists(pk)' : 'Rev = :rev',
          ...(rev !== 0 && { ExpressionAttributeValues: { ':rev': rev } }),
        }),
      );
      return;
    } catch (error) {
      // Another writer changed the block meanwhile: read it again and apply the changes to its state.
      if (!isConditionFailure(error)) throw error;
    }
  }
}

function sameEntry(a: DirectoryEntry, b: DirectoryEntry): boolean {
  return (
    a.siteId === b.siteId &&
    a.updatedAt === b.updatedAt &&
    a.ver === b.ver &&
    a.segment === b.segment &&
    a.live === b.live &&
    a.exact === b.exact
  );
}
