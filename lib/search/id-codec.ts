/**
 * A rebuild segment's ids as bytes: ascending ids as deltas in LEB128 varints, about 1.5 bytes an id for
 * consecutive records where a DynamoDB number set spends 8 or more.
 */

export function packIds(ascending: readonly number[]): Uint8Array {
  const bytes: number[] = [];
  let previous = 0;
  for (const id of ascending) {
    let delta = id - previous;
    previous = id;
    while (delta >= 0x80) {
      bytes.push((delta % 0x80) | 0x80);
      delta = Math.floor(delta / 0x80);
    }
    bytes.push(delta);
  }
  return Uint8Array.from(bytes);
}

export function unpackIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  let previous = 0;
  let value = 0;
  let scale = 1;
  for (const byte of bytes) {
    value += (byte & 0x7f) * scale;
    if (byte & 0x80) {
      scale *= 0x80;
      continue;
    }
    previous += value;
    ids.push(previous);
    value = 0;
    scale = 1;
  }
  return ids;
}
