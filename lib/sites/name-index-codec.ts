import { indexFromColumns, type NameIndex } from './name-index';

/**
 * The stored form of a name index (for S3): a 32-byte header, then the columns as raw little-endian
 * arrays, then the distinct names as one JSON array. About 25 bytes a site plus the names; loading it
 * is a few copies and one JSON.parse, with no per-site objects. The lookup cache is not stored.
 *
 *   0 magic "KSNI" · 4 format · 8 version (f64) · 16 count · 20 names byte length · 24 reserved
 *   32 ids f64[n] · parentIds f64[n] · siteName refs i32[n] · groupName refs i32[n] (-1: none)
 *   · kinds u8[n] · names (UTF-8 JSON array of strings)
 */

const MAGIC = 0x494e534b; // "KSNI" read as a little-endian u32
const FORMAT = 1;
const HEADER_BYTES = 32;

// Typed arrays use the platform's byte order; every Lambda architecture (x86_64, arm64) is little-endian.
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function serializeNameIndex(index: NameIndex): Uint8Array {
  if (!littleEndian) throw new Error('The name index format is little-endian');
  const n = index.count;
  const names: string[] = [];
  const refOf = new Map<string, number>();
  const ref = (name: string | undefined): number => {
    if (name === undefined) return -1;
    let at = refOf.get(name);
    if (at === undefined) {
      at = names.push(name) - 1;
      refOf.set(name, at);
    }
    return at;
  };
  const nameRefs = Int32Array.from(index.siteNames.slice(0, n), ref);
  const groupRefs = Int32Array.from(index.groupNames.slice(0, n), ref);
  const text = new TextEncoder().encode(JSON.stringify(names));

  const bytes = new Uint8Array(HEADER_BYTES + 25 * n + text.length);
  const header = new DataView(bytes.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, FORMAT, true);
  header.setFloat64(8, index.version, true);
  header.setUint32(16, n, true);
  header.setUint32(20, text.length, true);
  const offsets = columnOffsets(n);
  new Float64Array(bytes.buffer, offsets.ids, n).set(index.ids.subarray(0, n));
  new Float64Array(bytes.buffer, offsets.parentIds, n).set(index.parentIds.subarray(0, n));
  new Int32Array(bytes.buffer, offsets.nameRefs, n).set(nameRefs);
  new Int32Array(bytes.buffer, offsets.groupRefs, n).set(groupRefs);
  bytes.set(index.kinds.subarray(0, n), offsets.kinds);
  bytes.set(text, offsets.names);
  return bytes;
}

export function deserializeNameIndex(stored: Uint8Array): NameIndex {
  if (!littleEndian) throw new Error('The name index format is little-endian');
  // A copy: an S3 body's Buffer may start at any offset of a shared pool, and f64 views need 8.
  const bytes = new Uint8Array(stored);
  const header = new DataView(bytes.buffer);
  if (bytes.length < HEADER_BYTES || header.getUint32(0, true) !== MAGIC) {
    throw new Error('Not a stored name index');
  }
  if (header.getUint32(4, true) !== FORMAT) throw new Error('Unknown name index format');
  const version = header.getFloat64(8, true);
  const n = header.getUint32(16, true);
  const offsets = columnOffsets(n);
  const namesEnd = offsets.names + header.getUint32(20, true);
  if (bytes.length !== namesEnd) throw new Error('Truncated name index');
  const names = JSON.parse(new TextDecoder().decode(bytes.subarray(offsets.names, namesEnd))) as string[];
  const resolve = (refs: Int32Array) => Array.from(refs, (at) => (at < 0 ? undefined : names[at]));
  return indexFromColumns(
    {
      ids: new Float64Array(bytes.buffer, offsets.ids, n).slice(),
      parentIds: new Float64Array(bytes.buffer, offsets.parentIds, n).slice(),
      kinds: bytes.slice(offsets.kinds, offsets.kinds + n),
      siteNames: resolve(new Int32Array(bytes.buffer, offsets.nameRefs, n)),
      groupNames: resolve(new Int32Array(bytes.buffer, offsets.groupRefs, n)),
    },
    version,
  );
}

function columnOffsets(n: number) {
  const ids = HEADER_BYTES;
  const parentIds = ids + 8 * n;
  const nameRefs = parentIds + 8 * n;
  const groupRefs = nameRefs + 4 * n;
  const kinds = groupRefs + 4 * n;
  return { ids, parentIds, nameRefs, groupRefs, kinds, names: kinds + n };
}
