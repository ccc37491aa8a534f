import { BadRequestError } from '../errors';
import type { RecordFields } from './model';
import { type Family, families } from './schemas';

const familyNames = Object.keys(families) as Family[];

/**
 * The record's field families after a write: the stored values, then the direct fields (`ClassA`), then
 * the hashes (`ClassHash: {ClassA: ...}`). The hash wins over a direct field, as in the reference, whose
 * SetByApi applies the hashes after the fields. Hash keys match without case, like every property name
 * (CONTRACT section 1); an exact-case key wins over one that differs only in case, and a key that names
 * no column of its family is a 400.
 */
export function mergeFields(input: Record<string, unknown>, before?: RecordFields): RecordFields {
  const merged = {} as Record<Family, Record<string, unknown>>;
  for (const family of familyNames) {
    const values: Record<string, unknown> = { ...before?.[family] };
    for (const [key, value] of Object.entries(input)) {
      if (value !== undefined && columnOf(family, key) === key) values[key] = value;
    }
    const hash = input[`${family}Hash`] as Record<string, unknown> | undefined;
    const entries = Object.entries(hash ?? {}).sort(
      ([a], [b]) => exactLast(family, a) - exactLast(family, b),
    );
    for (const [key, value] of entries) {
      const column = columnOf(family, key);
      if (!column) throw new BadRequestError(`${family}Hash: no column ${key}`);
      values[column] = value;
    }
    if (family === 'Date')
      for (const [key, value] of Object.entries(values)) values[key] = toIso(value as string);
    merged[family] = values;
  }
  return merged as unknown as RecordFields;
}

/** `classa` → `ClassA` for the Class family; undefined when the key is no column of the family. */
function columnOf(family: Family, key: string): string | undefined {
  if (key.length !== family.length + 1 || key.slice(0, -1).toLowerCase() !== family.toLowerCase()) return;
  const letter = key.slice(-1).toUpperCase();
  return /^[A-Z]$/.test(letter) ? `${family}${letter}` : undefined;
}

function exactLast(family: Family, key: string): number {
  return columnOf(family, key) === key ? 1 : 0;
}

/** Dates are kept as ISO 8601 UTC; one given without a zone is taken as UTC. */
function toIso(value: string): string {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) || !value.includes(':') ? value : `${value}Z`;
  return new Date(zoned.replace(' ', 'T')).toISOString();
}
