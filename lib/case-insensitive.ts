import type * as z from 'zod';

/**
 * JSON in: property names match case-insensitively (`sessionkey` is `SessionKey`), as Newtonsoft reads
 * them in the reference. Walks the schema to rename every property the schema knows, nested objects and
 * arrays of objects included; an exact-case match wins over one that differs only in case.
 */
export function canonicalize(value: unknown, schema: z.ZodType): unknown {
  const def = (schema as { _zod: { def: SchemaDef } })._zod.def;
  switch (def.type) {
    case 'object':
      return isPlainObject(value) ? canonicalizeObject(value, def.shape ?? {}) : value;
    case 'array':
      return Array.isArray(value) && def.element
        ? value.map((item) => canonicalize(item, def.element as z.ZodType))
        : value;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return def.innerType ? canonicalize(value, def.innerType) : value;
    case 'pipe':
      return def.in ? canonicalize(value, def.in) : value;
    default:
      return value;
  }
}

interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
}

function canonicalizeObject(value: Record<string, unknown>, shape: Record<string, z.ZodType>) {
  const byLowerCase = new Map(Object.keys(shape).map((name) => [name.toLowerCase(), name]));
  const result: Record<string, unknown> = {};
  const exact = new Set<string>();
  for (const [key, item] of Object.entries(value)) {
    // Assigning it would set the copy's prototype; no schema has such a property.
    if (key === '__proto__') continue;
    const isExact = Object.hasOwn(shape, key);
    const name = isExact ? key : (byLowerCase.get(key.toLowerCase()) ?? key);
    if (exact.has(name)) continue;
    if (isExact) exact.add(name);
    // Own properties only: `toString` or `constructor` in a body must not find Object.prototype's.
    const property = Object.hasOwn(shape, name) ? shape[name] : undefined;
    result[name] = property ? canonicalize(item, property) : item;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
