import * as z from 'zod';

/**
 * What the API accepts, in one place (CONTRACT section 5, "Bounds"; docs/api.md lists them). Every limit is
 * checked before anything is stored and answered 400 naming the property, so that storage never meets a
 * value it cannot hold (DynamoDB: keys of 2048/1024 bytes, items of 400 KB, numbers of 38 digits, maps
 * nested 32 deep).
 */

/**
 * Lengths in UTF-16 code units (what zod and the reference's nvarchar count). A code unit is at most three
 * UTF-8 bytes, so 256 units are at most 768 bytes: every key built from a bounded string stays under
 * DynamoDB's 1024-byte sort key and 2048-byte partition key.
 */
export const MAX_LENGTH = {
  /** Login ids, user, group, dept and tenant names, file content types. */
  name: 256,
  /** Titles, Class columns, file names (the reference's nvarchar(1024)). */
  title: 1024,
  /** Body and Description columns (nvarchar(max) in the reference; the record's 380 KB bound applies too). */
  text: 100_000,
  /** Passwords: long enough for any passphrase, short enough that hashing one costs nothing unusual. */
  password: 1024,
  /** API keys are 128 characters; anything longer is simply not one. */
  apiKey: 1024,
} as const;

/** Free-form JSON (SiteSettings, a package's sites): at most this many levels of objects and arrays. */
export const MAX_JSON_DEPTH = 64;

/**
 * The levels a request body may add around a free-form value (`Package.Sites[i].SiteSettings`), so that the
 * body parser can refuse anything deeper before any recursive code sees it.
 */
export const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 8;

/**
 * Num columns keep what the reference's decimal(18,4) keeps: at most 14 digits before the point and 4 after.
 * A JSON number is a 64-bit float, exact to 15 significant digits; a number whose text a float cannot hold
 * exactly is refused when the body is read (lib/http/json-text.ts), never rounded.
 */
export const DECIMAL = { integerDigits: 14, fractionDigits: 4 } as const;
const DECIMAL_LIMIT = 10 ** DECIMAL.integerDigits;

/** Text, where a number is also taken as its text (CONTRACT section 1, as Newtonsoft reads it). */
export function text(checks: { min?: number; max: number }) {
  let string = z.string().max(checks.max);
  if (checks.min !== undefined) string = string.min(checks.min);
  return z.union([string, z.number().transform(String)]);
}

/** An integer within [min, max], both inside the range a float and a DynamoDB number hold exactly. */
export function integer(min: number, max: number) {
  return z
    .number()
    .int()
    .min(Math.max(min, Number.MIN_SAFE_INTEGER))
    .max(Math.min(max, Number.MAX_SAFE_INTEGER));
}

/** A stored id: 0 up to the largest safe integer. */
export const id = () => integer(0, Number.MAX_SAFE_INTEGER);

/** A 32-bit integer, as the reference's int columns (Status). */
export const int32 = () => integer(-(2 ** 31), 2 ** 31 - 1);

/** A Num column value: finite, under 10^14 in magnitude, at most 4 decimal places. */
export function decimal() {
  return z
    .number()
    .gt(-DECIMAL_LIMIT)
    .lt(DECIMAL_LIMIT)
    .refine((value) => fractionDigits(value) <= DECIMAL.fractionDigits, {
      message: `more than ${DECIMAL.fractionDigits} decimal places`,
      params: { bound: true },
    })
    .meta({
      description: `decimal(18,4): |value| < 10^${DECIMAL.integerDigits}, at most ${DECIMAL.fractionDigits} decimal places`,
    });
}

/**
 * What one bulk request may carry, so that it finishes within API Gateway's 30 s (issue 23: a bulkdelete
 * naming 100,000 ids answered 500 after 30 s while its deletes went on). Past a bound the request is a
 * 400 naming it before anything is read or written.
 *
 * - `bulkDelete`: ids in `Selected`, and the records one bulkdelete deletes (also with `All` or a View).
 *   Deletes go in transactions of at most 90 records, one after another: 5,000 records are 56 of them,
 *   about 10 s at 150–200 ms each in AWS (measured locally on a machine loaded 13 times over its cores:
 *   2,000 records in 15 s).
 * - `bulkUpsertItems`: items in `Data`. Each item is planned (its fields, its match, its Before script,
 *   about 3 ms per trivial script run) before anything is written, then written in transactions of at
 *   most 80 items: 1,000 items are 13 transactions and, with a Before and an After script each, about 6 s
 *   of scripts (measured locally on that loaded machine: 500 such items in 26 s, 2,000 without scripts
 *   past 30 s). The reference's General.BulkUpsertMax defaults to no limit.
 */
export const MAX_BULK = { bulkDelete: 5_000, bulkUpsertItems: 1_000 } as const;

/** Free-form JSON object (SiteSettings): anything, at most MAX_JSON_DEPTH levels deep. */
export function freeForm() {
  return z
    .record(z.string(), z.unknown())
    .refine((value) => !deeperThan(value, MAX_JSON_DEPTH), {
      message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
      params: { bound: true },
    })
    .meta({ description: `free-form JSON, at most ${MAX_JSON_DEPTH} levels of objects and arrays` });
}

/**
 * Whether `value` has more than `limit` levels of objects and arrays (the value itself is level 1).
 * Iterative, and it stops at the limit: a body 50,000 levels deep costs no stack and little time.
 */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Decimal places of a float's shortest text: 0.1 → 1, 1e-7 → 7, 12.5e3 → 0. */
function fractionDigits(value: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(value)).split('e');
  const decimals = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, decimals - Number(exponent));
}
