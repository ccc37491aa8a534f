import { deeperThan, MAX_BODY_DEPTH } from '../bounds';
import { InvalidJsonError, OutOfBoundsError } from '../errors';

/**
 * JSON.parse for request bodies, with the two checks that must come before any code walks the value:
 * nesting (V8's parser itself is not recursive; the check is an iterative walk, so a body 50,000 levels
 * deep never reaches a recursive function such as JSON.stringify) and numbers (a number whose text a
 * 64-bit float cannot hold exactly, such as 2^53 + 1, 1e400 or 1e-400, is refused naming its property,
 * instead of being rounded, turned into Infinity or 0, or failing in storage).
 */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidJsonError('body is not JSON');
  }
  if (deeperThan(value, MAX_BODY_DEPTH)) {
    throw new OutOfBoundsError('body', `nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
  const inexact = RISKY_NUMBER.test(text) ? inexactNumber(text) : undefined;
  if (inexact) throw new OutOfBoundsError(inexact.key || 'body', `${inexact.source} cannot be kept exactly`);
  return value;
}

/**
 * Only a number of 16 or more digits or one with an exponent can be beyond a float's exactness (15
 * significant digits always survive); a body without such a number, as nearly every body is, skips the
 * second, slower parse that sees each number's source. A number starts the text or follows `:`, `,` or
 * `[` (and white space), which an API key's hex digits (`…3e7…`) never do; text inside a string that
 * looks like one is checked too, which costs time, never an answer.
 */
const RISKY_NUMBER = /(?:^|[:,[])\s*-?(?:\d[\d.]{15}|\d+(?:\.\d*)?[eE])/;

/** The first number whose source text the parsed float does not equal, with its property name. */
function inexactNumber(text: string): { key: string; source: string } | undefined {
  let inexact: { key: string; source: string } | undefined;
  JSON.parse(text, (key, item: unknown, context?: { source?: string }) => {
    if (
      typeof item === 'number' &&
      context?.source !== undefined &&
      !inexact &&
      !isExact(item, context.source)
    )
      inexact = { key, source: context.source };
    return item;
  });
  return inexact;
}

/** Whether the float `value` is exactly the decimal number `source` (JSON number syntax). */
export function isExact(value: number, source: string): boolean {
  if (!Number.isFinite(value)) return false;
  return normalized(source) === normalized(String(value));
}

/** A decimal text as sign, significant digits and exponent: `-0012.3400e1` → `-1234e-1`. */
function normalized(decimal: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(decimal);
  if (!match) return decimal;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  let power = Number(exponent) - fraction.length;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  power += trailing;
  return `${sign}${digits}e${power}`;
}
