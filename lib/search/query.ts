import { type DirectoryEntry, readDirectory } from './directory';
import { DELETED_VER, type GramPostings, getDocuments, postingIds, type SearchDocument } from './index-store';
import { boundedSearchWords, GRAM_SIZE, matchesAll, wordGrams, wordToken } from './text';

/**
 * Search through the index. The directory (every indexed document's site, UpdatedTime and whether its
 * postings are exact) and the postings of the words' n-grams are read side by side; the ids holding every
 * n-gram of every word, in scope, are the candidates. A candidate whose postings are exact is proven when
 * every word is either one n-gram (at most GRAM_SIZE characters) or a whole token of its text (its token
 * key); the others are checked against their stored text, reading only the texts. Postings may hold an
 * id too many, never one too few, so the answer is exactly a substring scan of the stored texts. Newest first by the directory's UpdatedTime: no document
 * is read for ordering or counting.
 */

export interface SearchScope {
  /** Only documents of these sites (a site's own document has its own id as SiteId). */
  readonly siteIds?: ReadonlySet<number>;
  /** Only records, or only sites; both when left out. */
  readonly kind?: SearchDocument['kind'];
  /** Only what this says the caller may read (a site's own document: its id as both). */
  readonly canRead?: (siteId: number, id: number) => boolean;
}

export interface SearchMatch {
  readonly id: number;
  readonly siteId: number;
  readonly kind: SearchDocument['kind'];
  readonly updatedAt: number;
}

/**
 * The documents of the tenant that match `searchText`, newest first; no words: none. A text over the
 * bounds of boundedSearchWords is refused, naming `property`, before anything is read.
 */
export async function searchIndex(
  tenantId: number,
  searchText: string,
  scope: SearchScope = {},
  property = 'SearchText',
): Promise<SearchMatch[]> {
  const words = boundedSearchWords(searchText, property);
  if (words.length === 0) return [];
  const grams = [...new Set(words.flatMap(wordGrams))];
  const tokens = words.map(wordToken).filter((token) => token !== undefined);
  const [directory, ...postings] = await Promise.all([
    readDirectory(tenantId),
    ...[...grams, ...tokens].map((key) => postingIds(tenantId, key)),
  ]);
  const inScope = (id: number, entry: DirectoryEntry | undefined): entry is DirectoryEntry =>
    entry !== undefined &&
    entry.ver !== DELETED_VER &&
    (scope.kind === undefined || kindOf(id, entry) === scope.kind) &&
    (scope.siteIds === undefined || scope.siteIds.has(entry.siteId)) &&
    (scope.canRead === undefined || scope.canRead(entry.siteId, id));
  const sets = postings.slice(0, grams.length).map((gram) => idsOf(gram, directory));
  const tokenSets = postings.slice(grams.length).map((token) => idsOf(token, directory));
  sets.sort((a, b) => a.size - b.size);
  const [smallest, ...rest] = sets;
  const candidates = [...(smallest ?? [])].filter(
    (id) => inScope(id, directory.get(id)) && rest.every((ids) => ids.has(id)),
  );
  // Words longer than one n-gram, each proven for an exact document by its token key.
  const long = words.filter((word) => Array.from(word).length > GRAM_SIZE).length;
  const proven = (id: number) =>
    directory.get(id)?.exact === true &&
    (long === 0 || (tokenSets.length === long && tokenSets.every((ids) => ids.has(id))));
  const unproven = candidates.filter((id) => !proven(id));
  const texts = await getDocuments(tenantId, unproven, true);
  const failed = new Set(unproven.filter((id) => !matchesAll(texts.get(id)?.text ?? '', words)));
  return candidates
    .filter((id) => !failed.has(id))
    .map((id) => {
      const entry = directory.get(id) as DirectoryEntry;
      return { id, siteId: entry.siteId, kind: kindOf(id, entry), updatedAt: entry.updatedAt };
    })
    .sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
}

/** The ids of the records of `siteIds` whose full text holds every word of `searchText`, in id order. */
export async function recordIdsMatching(
  tenantId: number,
  siteIds: readonly number[],
  searchText: string,
): Promise<number[]> {
  const matches = await searchIndex(
    tenantId,
    searchText,
    { siteIds: new Set(siteIds), kind: 'record' },
    'View.Search',
  );
  return matches.map((match) => match.id).sort((a, b) => a - b);
}

/** A site's own document has the site's id as its SiteId. */
const kindOf = (id: number, entry: DirectoryEntry): SearchDocument['kind'] =>
  id === entry.siteId ? 'site' : 'record';

/**
 * One n-gram's ids: the live postings, and a segment's ids for which the directory names that segment as
 * the one standing for them.
 */
function idsOf(gram: GramPostings, directory: ReadonlyMap<number, DirectoryEntry>): Set<number> {
  const ids = new Set(gram.live);
  for (const segment of gram.segments) {
    for (const id of segment.ids) {
      const entry = directory.get(id);
      if (entry && entry.segment === segment.segment && entry.siteId === segment.siteId) ids.add(id);
    }
  }
  return ids;
}
