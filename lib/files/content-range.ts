import { BadRequestError } from '../errors';

/** A chunk's place in its file: bytes `from`..`to` (inclusive) of `total`. */
export interface ContentRange {
  readonly from: number;
  readonly to: number;
  readonly total: number;
}

/**
 * The file part's Content-Range, `bytes <from>-<to>/<total>`. Absent or without digits: no chunking, as in
 * the reference, which reads the first three digit runs and ignores the rest. Where the reference fails
 * with a server error (fewer than three numbers, `to` past the total, `from` past `to`), this is a 400.
 */
export function parseContentRange(header: string | undefined): ContentRange | undefined {
  const numbers = header?.match(/\d+/g);
  if (!numbers) return undefined;
  if (numbers.length < 3) throw new BadRequestError(`Content-Range ${header} lacks a number`);
  const [from, to, total] = numbers.slice(0, 3).map(Number) as [number, number, number];
  if (![from, to, total].every(Number.isSafeInteger) || from > to || to >= total) {
    throw new BadRequestError(`Content-Range ${header} is not a range of the file`);
  }
  return { from, to, total };
}
