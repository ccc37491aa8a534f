import { getDocuments, putDocuments, putSegments, type SearchDocument } from './index-store';
import { needsWrite } from './index-writer';
import { textGrams } from './text';

/**
 * One rebuild page into the index: the page's segments (every n-gram of every document of the page, with
 * the ids holding it), then the documents that differ from the stored ones. In that order, a crash in
 * between leaves the documents stale, so the page is done again; and the segments are written for every
 * page, changed or not, because a page's boundaries move when records come and go, and a segment left
 * out would take its ids' postings with it. A page done twice writes the same rows.
 */
export async function indexPage(
  tenantId: number,
  segment: string,
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
  const segments = await putSegments(tenantId, segment, postings);
  const stored = await getDocuments(
    tenantId,
    docs.map((doc) => doc.id),
  );
  const changed = docs.filter((doc) => needsWrite(stored.get(doc.id), doc));
  await putDocuments(tenantId, changed);
  return { documents: changed.length, segments };
}
