import { MAX_BODY_DEPTH } from '../bounds';
import { InvalidJsonError, OutOfBoundsError } from '../errors';

/**
 * JSON.parse for request bodies, with the two checks that must come before any code walks the value:
 * nesting (counted on the text, so a body 50,000 levels deep never reaches a recursive function) and
 * numbers (a number whose text a 64-bit float cannot hold exactly, such as 2^53 + 1, 1e400 or 1e-400, is
 * refused naming its property, instead of being rounded, turned into Infinity or 0, or failing in storage).
 */
export function parseJsonText(text: string): unknown {
  if (nestingOf(text) > MAX_BODY_DEPTH) {
    throw new OutOfBoundsError('body', `nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
  let inexact: { key: string; source: string } | undefined;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, item: unknown, context?: { source?: string }) => {
      if (
        typeof item === 'number' &&
        context?.source !== undefined &&
        !inexact &&
        !isExact(item, context.source)
      )
        inexact = { key, source: context.source };
      return item;
    });
  } catch {
    throw new InvalidJsonError('body is not JSON');
  }
  if (inexact) {
    throw new OutOfBoundsError(inexact.key || 'body', `${inexact.source} cannot be kept exactly`);
  }
  return value;
}

/** The deepest level of `[` and `{` in the text, strings skipped. */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
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
