import { putVarint, VarintReader } from './varint';

/**
 * A directory row's bytes (lib/search/directory.ts): the entries of one block of ids, ascending, each
 * `[id delta][site id][updated at][ver][segment][flags]` in LEB128 varints. About 16 bytes an entry, so that a
 * search reads the whole tenant's directory (100,000 documents: about 1.6 MB) in a few requests.
 */

export interface DirectoryEntry {
  readonly siteId: number;
  readonly updatedAt: number;
  /** The indexed version; DELETED_VER for a deleted item, kept so that no older write brings it back. */
  readonly ver: number;
  /**
   * Which rebuild segment of its site holds the id's postings: the page's first id after which it
   * starts, plus one; 0 for none. Rows of other pages that still hold the id are not counted.
   */
  readonly segment: number;
  /** The live path has written postings for the id at some time. */
  readonly live: boolean;
  /**
   * The postings hold exactly the n-grams of the indexed text, no more: a word of up to three characters
   * is then proven by its n-gram alone, without reading the text. Otherwise they hold at least those.
   */
  readonly exact: boolean;
}

const LIVE = 1;
const EXACT = 2;

export function encodeDirectory(entries: ReadonlyMap<number, DirectoryEntry>): Uint8Array {
  const bytes: number[] = [];
  const put = (value: number) => putVarint(bytes, value);
  let previous = 0;
  for (const id of [...entries.keys()].sort((a, b) => a - b)) {
    const entry = entries.get(id) as DirectoryEntry;
    put(id - previous);
    previous = id;
    put(entry.siteId);
    put(entry.updatedAt);
    put(entry.ver);
    put(entry.segment);
    put((entry.live ? LIVE : 0) | (entry.exact ? EXACT : 0));
  }
  return Uint8Array.from(bytes);
}

/** Calls `each` for every entry of a row, in id order, without building objects it does not need. */
export function decodeDirectory(bytes: Uint8Array, each: (id: number, entry: DirectoryEntry) => void): void {
  const reader = new VarintReader(bytes);
  const get = () => reader.next();
  let id = 0;
  while (!reader.done) {
    id += get();
    const siteId = get();
    const updatedAt = get();
    const ver = get();
    const segment = get();
    const flags = get();
    each(id, {
      siteId,
      updatedAt,
      ver,
      segment,
      live: (flags & LIVE) !== 0,
      exact: (flags & EXACT) !== 0,
    });
  }
}
