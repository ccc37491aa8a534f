/**
 * The reference's QueryStrings (CONTRACT section 8, reference/pleasanter-behaviour.md 6.1), the one parser
 * for the upload's flags and the server scripts' `context.QueryStrings`. The raw query is split on `&`,
 * then on `=`, and key and value are URL-decoded (UTF-8, `+` is a space); `a=b=c` gives `b`. Entries keep
 * their insertion order; an exact key given again keeps its first place and takes the last value (the
 * reference's dictionary indexer), and a lookup takes the first key that matches without case.
 */
export class QueryStrings {
  private readonly entries = new Map<string, string>();

  constructor(raw: string | undefined) {
    for (const piece of (raw ?? '').replace(/^\?/, '').split('&')) {
      const [name = '', value = ''] = piece.split('=');
      this.entries.set(decode(name), decode(value));
    }
  }

  /** The value as a string; a missing key or one without a value gives "". */
  data(key: string): string {
    const wanted = key.toLowerCase();
    for (const [name, value] of this.entries) if (name.toLowerCase() === wanted) return value;
    return '';
  }

  /** True only for `1`, `-1`, `true` and `on`, trimmed, in any case (the reference's ToBool). */
  bool(key: string): boolean {
    return ['1', '-1', 'true', 'on'].includes(this.data(key).trim().toLowerCase());
  }

  /** .NET `int.TryParse`: 0 when the text is no 32-bit integer. */
  int(key: string): number {
    return Number(parseInteger(this.data(key), INT32));
  }

  /**
   * .NET `long.TryParse`: 0 when the text is no 64-bit integer. A number when it is exact as one (within
   * ±2^53), else a BigInt, so that no digit is lost.
   */
  long(key: string): number | bigint {
    const value = parseInteger(this.data(key), INT64);
    return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
  }
}

const INT32 = 2n ** 31n;
const INT64 = 2n ** 63n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * NumberStyles.Integer: leading and trailing white space (U+0009–U+000D, U+0020), one leading sign, ASCII
 * digits only; overflow fails like any other bad text, and a failure is 0.
 */
function parseInteger(text: string, limit: bigint): bigint {
  const match = /^[\t\n\v\f\r ]*([+-]?)(\d+)[\t\n\v\f\r ]*$/.exec(text);
  if (!match) return 0n;
  const value = (match[1] === '-' ? -1n : 1n) * BigInt(match[2] as string);
  return value >= -limit && value < limit ? value : 0n;
}

const utf8 = new TextDecoder();

/**
 * HttpUtility.UrlDecode: `+` is a space, each valid `%XX` is a byte, the bytes are read as UTF-8 (a bad
 * sequence becomes U+FFFD), and a `%` that starts no valid escape stays as written.
 */
function decode(text: string): string {
  if (!/[%+]/.test(text)) return text;
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    const hex = char === '%' ? text.slice(index + 1, index + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      const code = text.codePointAt(index) as number;
      if (code > 0xffff) index++;
      bytes.push(...Buffer.from(char === '+' ? ' ' : String.fromCodePoint(code)));
    }
  }
  return utf8.decode(new Uint8Array(bytes));
}

export function queryData(raw: string | undefined, key: string): string {
  return new QueryStrings(raw).data(key);
}

export function queryBool(raw: string | undefined, key: string): boolean {
  return new QueryStrings(raw).bool(key);
}
