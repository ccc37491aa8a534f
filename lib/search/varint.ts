/**
 * LEB128 varints, the packing of the search index's directory and segment rows: seven bits a byte, low
 * bits first, the high bit set on every byte but the last. Non-negative integers up to 2^53.
 */

/** Appends `value` to `bytes`. */
export function putVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
}

/** Reads varints (and raw bytes between them) from `bytes`, front to back. */
export class VarintReader {
  /** The next byte to read. */
  at = 0;

  constructor(readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  next(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.at++] ?? 0;
      value += (byte & 0x7f) * scale;
      if (!(byte & 0x80)) return value;
      scale *= 0x80;
    }
  }
}
