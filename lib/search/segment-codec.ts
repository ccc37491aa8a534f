import { putVarint, VarintReader } from './varint';

/**
 * A rebuild segment row's bytes: for each n-gram of one hash bucket, its UTF-8 bytes and the ascending ids
 * of the page's documents holding it, as deltas. All in LEB128 varints:
 * `[gram length][gram bytes][id count][first id][delta]...` repeated. Dense pages of consecutive records
 * take about a byte an id.
 */

/** How many rows a page's postings are spread over: rows stay a few KB, a search reads one per page. */
export const SEGMENT_BUCKETS = 1024;

/** FNV-1a over the gram's UTF-16 units: which bucket row holds a gram's ids. */
export function bucketOf(gram: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < gram.length; index++) {
    hash ^= gram.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SEGMENT_BUCKETS;
}

export function encodeSegment(postings: Iterable<readonly [string, readonly number[]]>): Uint8Array {
  const bytes: number[] = [];
  const put = (value: number) => putVarint(bytes, value);
  for (const [gram, ids] of postings) {
    const text = Buffer.from(gram, 'utf8');
    put(text.length);
    for (const byte of text) bytes.push(byte);
    put(ids.length);
    let previous = 0;
    for (const id of ids) {
      put(id - previous);
      previous = id;
    }
  }
  return Uint8Array.from(bytes);
}

/** The ids of `gram` in a segment row's bytes (none when the row does not hold it). */
export function idsInSegment(bytes: Uint8Array, gram: string): number[] {
  const wanted = Buffer.from(gram, 'utf8');
  const reader = new VarintReader(bytes);
  const get = () => reader.next();
  while (!reader.done) {
    const length = get();
    const start = reader.at;
    const matches =
      length === wanted.length && Buffer.from(bytes.subarray(start, start + length)).equals(wanted);
    reader.at += length;
    const count = get();
    if (!matches) {
      for (let skipped = 0; skipped < count; skipped++) get();
      continue;
    }
    const ids: number[] = [];
    let previous = 0;
    for (let index = 0; index < count; index++) {
      previous += get();
      ids.push(previous);
    }
    return ids;
  }
  return [];
}
