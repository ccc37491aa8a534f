import { getDocuments, postingIds, type SearchDocument } from './index-store';
import { matchesAll, searchWords, wordGrams } from './text';

/**
 * Search through the index: the ids holding every gram of every word are the candidates, and the
 * candidates whose stored text holds every word are the answer. The postings may hold an id too many
 * (a text since changed, an interrupted write), never one too few, so the answer is exactly a substring
 * scan of the stored texts.
 */

export interface SearchScope {
  /** Only documents of these sites (a site's own document has its own id as SiteId). */
  readonly siteIds?: ReadonlySet<number>;
  /** Only records, or only sites; both when left out. */
  readonly kind?: SearchDocument['kind'];
}

/** The documents of the tenant that match `searchText`, in no particular order; no words: none. */
export async function matchingDocuments(
  tenantId: number,
  searchText: string,
  scope: SearchScope = {},
): Promise<SearchDocument[]> {
  const words = searchWords(searchText);
  if (words.length === 0) return [];
  const grams = [...new Set(words.flatMap(wordGrams))];
  const postings = await Promise.all(grams.map((gram) => postingIds(tenantId, gram)));
  postings.sort((a, b) => a.size - b.size);
  const [smallest, ...rest] = postings;
  const candidates = [...(smallest ?? [])].filter((id) => rest.every((ids) => ids.has(id)));
  const documents = await getDocuments(tenantId, candidates);
  return [...documents.values()].filter(
    (doc) =>
      (scope.kind === undefined || doc.kind === scope.kind) &&
      (scope.siteIds === undefined || scope.siteIds.has(doc.siteId)) &&
      matchesAll(doc.text, words),
  );
}

/** The ids of the records of `siteIds` whose full text holds every word of `searchText`, in id order. */
export async function recordIdsMatching(
  tenantId: number,
  siteIds: readonly number[],
  searchText: string,
): Promise<number[]> {
  const documents = await matchingDocuments(tenantId, searchText, {
    siteIds: new Set(siteIds),
    kind: 'record',
  });
  return documents.map((doc) => doc.id).sort((a, b) => a - b);
}
