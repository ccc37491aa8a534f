import { type EntryChange, updateDirectory } from './directory';
import {
  DELETED_VER,
  getDocuments,
  putDocuments,
  putSegments,
  type SearchDocument,
  segmentKey,
  segmentNumber,
} from './index-store';
import { entryOf, needsWrite } from './index-writer';
import { textGrams } from './text';

/**
 * One rebuild page into the index: `docs` are the documents of site `siteId`'s page after `afterId` (its
 * records, and on its first page the site's own document). First the page's segments (every n-gram of every document, with the ids holding it), then the documents that differ
 * from the stored ones, each written only over an older version (a live change made after this page read
 * its records stays), then their directory entries, likewise only over older versions. In that order, a
 * crash in between leaves the directory as it was, so the page is done again; and the segments are
 * written for every page, changed or not. A page done twice writes the same rows.
 *
 * An entry becomes exact only where the live path never wrote postings for the id: postings it wrote
 * for an older text may hold n-grams this text lacks, and only checking the text tells.
 */
export async function indexPage(
  tenantId: number,
  siteId: number,
  afterId: number,
  docs: readonly SearchDocument[],
): Promise<{ documents: number; segments: number }> {
  const postings = new Map<string, number[]>();
  for (const doc of [...docs].sort((a, b) => a.id - b.id)) {
    for (const gram of textGrams(doc.text)) {
      const ids = postings.get(gram);
      if (ids) ids.push(doc.id);
      else postings.set(gram, [doc.id]);
    }
  }
  const segments = await putSegments(tenantId, segmentKey(siteId, afterId), postings);
  const stored = await getDocuments(
    tenantId,
    docs.map((doc) => doc.id),
  );
  const current = docs.filter((doc) => stored.get(doc.id)?.ver !== DELETED_VER);
  const changed = current.filter((doc) => needsWrite(stored.get(doc.id), doc));
  const refused = await putDocuments(tenantId, changed);
  await updateDirectory(
    tenantId,
    new Map(
      current
        .filter((doc) => !refused.has(doc.id))
        .map((doc): [number, EntryChange] => [
          doc.id,
          (entry) => {
            if (entry && entry.ver > doc.ver) return undefined;
            const live = entry?.live ?? false;
            return { ...entryOf(doc), segment: segmentNumber(afterId), live, exact: !live };
          },
        ]),
    ),
  );
  return { documents: changed.length - refused.size, segments };
}
