import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { isExact } from '../../lib/http/json-text';
import { routes } from '../../lib/routes';

/**
 * The bounds hold by construction (CONTRACT section 5): every string, number and free-form object that
 * any JSON request takes has a documented limit in its schema, which is also what OpenAPI shows.
 */

interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  maxLength?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  $defs?: Record<string, JsonSchema>;
}

/** Every leaf of the schema with its path. */
function leaves(schema: JsonSchema, path: string, out: [string, JsonSchema][] = []): [string, JsonSchema][] {
  if (schema.anyOf) {
    // text(): a number is taken as its text, which is short; the string is what is bounded.
    const text = schema.anyOf.some((option) => option.type === 'string');
    for (const option of schema.anyOf) if (!(text && option.type === 'number')) leaves(option, path, out);
  } else if (schema.properties) {
    for (const [name, property] of Object.entries(schema.properties))
      leaves(property, `${path}.${name}`, out);
    if (typeof schema.additionalProperties === 'object')
      leaves(schema.additionalProperties, `${path}.*`, out);
  } else if (schema.items) leaves(schema.items, `${path}[]`, out);
  else if (
    typeof schema.additionalProperties === 'object' &&
    Object.keys(schema.additionalProperties).length
  ) {
    leaves(schema.additionalProperties, `${path}.*`, out);
  } else out.push([path, schema]);
  return out;
}

const requestLeaves = routes
  .filter((route) => route.request && route.requestType !== 'multipart')
  .flatMap((route) => {
    const root = z.toJSONSchema(route.request as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema & { $ref?: string };
    // A request schema named for OpenAPI's components (`.meta({ id })`) is itself a reference.
    const named = /^#\/\$defs\/(\w+)$/.exec(root.$ref ?? '')?.[1];
    const top = named ? { ...root.$defs?.[named], $defs: root.$defs } : root;
    // References inside named schemas are replaced too, a level at a time (the schemas are no cycles).
    let text = JSON.stringify(top);
    for (let level = 0; level < 8 && text.includes('{"$ref":"#/$defs/'); level++) {
      text = text.replace(/\{"\$ref":"#\/\$defs\/(\w+)"\}/g, (_, name: string) =>
        JSON.stringify({ ...root.$defs?.[name], $defs: undefined }),
      );
    }
    const resolved = JSON.parse(text) as JsonSchema;
    return leaves(resolved, route.path).filter(([path]) => !path.endsWith('.ApiVersion'));
  });

describe('request schemas', () => {
  it('bound every string by a maxLength, an enum or a bounded pattern', () => {
    const unbounded = requestLeaves.filter(
      ([, leaf]) =>
        leaf.type === 'string' &&
        leaf.maxLength === undefined &&
        leaf.enum === undefined &&
        !(leaf.pattern && /^\^.*\$$/.test(leaf.pattern) && !/[*+]|\{\d+,\}/.test(leaf.pattern)),
    );
    expect(unbounded.map(([path]) => path)).toEqual([]);
  });

  it('bound every number above and below', () => {
    const unbounded = requestLeaves.filter(
      ([, leaf]) =>
        (leaf.type === 'number' || leaf.type === 'integer') &&
        ((leaf.maximum ?? leaf.exclusiveMaximum) === undefined ||
          (leaf.minimum ?? leaf.exclusiveMinimum) === undefined),
    );
    expect(unbounded.map(([path]) => path)).toEqual([]);
  });

  it('document the depth of every free-form object', () => {
    const freeForm = requestLeaves.filter(([, leaf]) => leaf.type === 'object' || leaf.type === undefined);
    for (const [path, leaf] of freeForm) expect(leaf.description ?? '', path).toMatch(/at most 64 levels/);
  });
});

describe('isExact', () => {
  it.each([
    ['1', 1],
    ['1.10', 1.1],
    ['-0', -0],
    ['1e2', 100],
    ['0.0001', 0.0001],
    ['1.5E-7', 1.5e-7],
    ['9007199254740991', 9007199254740991],
  ])('%s is kept exactly', (source, value) => expect(isExact(value, source)).toBe(true));

  it.each([
    ['9007199254740993', 2 ** 53],
    ['1e400', Number.POSITIVE_INFINITY],
    ['1e-400', 0],
    ['0.1000000000000000000001', 0.1],
  ])('%s is not', (source, value) => expect(isExact(value, source)).toBe(false));
});
