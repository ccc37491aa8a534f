import { mapLimit } from './concurrency';
import { type DirectoryEntry, type EntryChange, updateDirectory } from './directory';
import {
  blockOf,
  DELETED_VER,
  getDocuments,
  putDocument,
  revives,
  type SearchDocument,
  settleDocument,
  updatePosting,
} from './index-store';
import { KEYING, textGrams } from './text';

/**
 * Brings the index to `docs` (new versions of sites and records, or tombstones of deleted ones), as one
 * batch: a record's change writes its document and the postings of the grams it gained or lost, nothing
 * else of the tenant's index.
 *
 * The order makes every interruption and every race leave at worst postings too many (candidates the
 * search drops when it checks them against their text), never one too few:
 * 0. its directory entry takes the new version, its postings marked as not exact (a deleted item's entry
 *    is marked deleted: the search stops finding it at once);
 * 1. the document is written with `Pending`, unless a newer version is stored;
 * 2. postings of lost grams are removed and postings of the new grams added, side by side as the two
 *    sets never overlap (all the new grams when the previous version was itself still pending, or keyed
 *    by another word cutting: its postings may be partial);
 * 3. documents that another writer replaced meanwhile get their grams added again, in case step 2
 *    removed some of them;
 * 4. `Pending` is cleared. A document still pending (a crash before this) counts as stale for a rebuild
 *    and is redone in full by the next change;
 * 5. the directory entry is marked exact where the postings now hold exactly the text's n-grams: the
 *    document was new, or its postings were exact and live only (never in a rebuild segment, whose rows
 *    only a rebuild changes) and keyed alike (keyedAlike), and no other writer interfered.
 */

const CONCURRENCY = 16;

export function tombstone(id: number, siteId: number, updatedAt: number): SearchDocument {
  return { id, siteId, kind: 'record', title: '', text: '', ver: DELETED_VER, updatedAt };
}

/** Whether `doc` would change what is stored (`stored` undefined: nothing is). */
export function needsWrite(stored: SearchDocument | undefined, doc: SearchDocument): boolean {
  // A tombstone is written even where nothing was indexed: a late write of an older version must not
  // bring a deleted record into the index.
  if (!stored) return true;
  if (stored.ver > doc.ver && !revives(stored.ver, doc)) return false;
  return (
    stored.pending === true ||
    stored.ver !== doc.ver ||
    stored.text !== doc.text ||
    stored.title !== doc.title ||
    stored.siteId !== doc.siteId
  );
}

export async function applyDocuments(
  tenantId: number,
  docs: readonly SearchDocument[],
): Promise<{ written: number; postingWrites: number }> {
  const stored = await getDocuments(
    tenantId,
    docs.map((doc) => doc.id),
  );
  const candidates = docs.filter((doc) => needsWrite(stored.get(doc.id), doc));
  const entriesBefore = new Map<number, DirectoryEntry | undefined>();
  await updateDirectory(
    tenantId,
    new Map(
      candidates.map((doc): [number, EntryChange] => [
        doc.id,
        (entry) => {
          entriesBefore.set(doc.id, entry);
          if (entry && entry.ver > doc.ver && !revives(entry.ver, doc)) return undefined;
          const moved = entry !== undefined && entry.siteId !== doc.siteId;
          return { ...entryOf(doc), segment: moved ? 0 : (entry?.segment ?? 0), live: true, exact: false };
        },
      ]),
    ),
  );
  const written = (
    await mapLimit(candidates, CONCURRENCY, async (doc) =>
      (await putDocument(tenantId, { ...doc, pending: true })) ? doc : undefined,
    )
  ).filter((doc): doc is SearchDocument => doc !== undefined);

  const removals = new PostingBatch();
  const additions = new PostingBatch();
  for (const doc of written) {
    const before = stored.get(doc.id);
    const oldGrams = before ? textGrams(before.text) : new Set<string>();
    const newGrams = textGrams(doc.text);
    for (const gram of oldGrams) if (!newGrams.has(gram)) removals.add(gram, doc.id);
    // Moved to another site: the grams its old site's segment held for it no longer count. Keyed by
    // another word cutting: its postings may lack tokens that this text keeps.
    const complete =
      before !== undefined && !before.pending && before.siteId === doc.siteId && before.keying === KEYING;
    for (const gram of newGrams) if (!complete || !oldGrams.has(gram)) additions.add(gram, doc.id);
  }
  // Lost and gained grams of one document never overlap: both kinds of write go out at once.
  const [removed, added] = await Promise.all([
    removals.write(tenantId, 'DELETE'),
    additions.write(tenantId, 'ADD'),
  ]);
  let postingWrites = removed + added;

  const now = await getDocuments(
    tenantId,
    written.map((doc) => doc.id),
  );
  const readd = new PostingBatch();
  const raced = new Set<number>();
  for (const doc of written) {
    const current = now.get(doc.id);
    if (current && (current.ver !== doc.ver || current.text !== doc.text)) {
      raced.add(doc.id);
      for (const gram of textGrams(current.text)) readd.add(gram, doc.id);
    }
  }
  postingWrites += await readd.write(tenantId, 'ADD');
  await mapLimit(written, CONCURRENCY, (doc) => settleDocument(tenantId, doc));
  await updateDirectory(
    tenantId,
    new Map(
      written
        .filter((doc) => doc.ver !== DELETED_VER && !raced.has(doc.id))
        .filter((doc) => {
          const before = stored.get(doc.id);
          const entry = entriesBefore.get(doc.id);
          if (!before) return entry === undefined || (entry.segment === 0 && entry.exact);
          return entry?.exact === true && entry.segment === 0 && !before.pending && keyedAlike(before.keying);
        })
        .map((doc): [number, EntryChange] => [
          doc.id,
          (entry) => (entry?.ver === doc.ver && entry.segment === 0 ? { ...entry, exact: true } : undefined),
        ]),
    ),
  );
  return { written: written.length, postingWrites };
}

/**
 * Whether postings written for a text under `keying` are exactly what textGrams gives for it now, as far
 * as removing them goes: the same word cutting, or none (space-split tokens only, which textGrams still
 * keys). Under another cutting, a token it keyed may be one that textGrams no longer gives, so its posting
 * is never removed: a proof that does not hold. Such a document stays on the text-checked path.
 */
const keyedAlike = (keying: string | undefined) => keying === undefined || keying === KEYING;

/** A document's directory entry, before its flags. */
export function entryOf(doc: SearchDocument): Omit<DirectoryEntry, 'segment' | 'live' | 'exact'> {
  return { siteId: doc.siteId, updatedAt: doc.updatedAt, ver: doc.ver };
}

/** Ids per gram and block, so that one page of records costs one write per gram and block it touches. */
class PostingBatch {
  private readonly entries = new Map<string, { gram: string; block: number; ids: Set<number> }>();

  add(gram: string, id: number): void {
    const block = blockOf(id);
    const key = `${block}\u0000${gram}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { gram, block, ids: new Set() };
      this.entries.set(key, entry);
    }
    entry.ids.add(id);
  }

  async write(tenantId: number, action: 'ADD' | 'DELETE'): Promise<number> {
    await mapLimit([...this.entries.values()], CONCURRENCY, (entry) =>
      updatePosting(tenantId, entry.gram, entry.block, entry.ids, action),
    );
    return this.entries.size;
  }
}
