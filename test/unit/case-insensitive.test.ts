import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { canonicalize } from '../../lib/case-insensitive';

const schema = z.object({
  SessionKey: z.string(),
  Nested: z.object({ Inner: z.number() }).optional(),
  List: z.array(z.object({ Guid: z.string() })).optional(),
});

describe('case-insensitive', () => {
  describe('canonicalize', () => {
    it.each([
      [{ sessionkey: 'a' }, { SessionKey: 'a' }],
      [{ SESSIONKEY: 'a', SessionKey: 'exact' }, { SessionKey: 'exact' }],
      [{ SessionKey: 'exact', sessionKEY: 'variant' }, { SessionKey: 'exact' }],
      [{ nested: { inner: 1 } }, { Nested: { Inner: 1 } }],
      [{ list: [{ guid: 'g' }] }, { List: [{ Guid: 'g' }] }],
      [{ Unknown: 1 }, { Unknown: 1 }],
    ])('renames %o to %o', (input, expected) => {
      expect(canonicalize(input, schema)).toEqual(expected);
    });

    it.each(['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf'])(
      'leaves a property named %s alone instead of treating Object.prototype as the schema',
      (name) => {
        const input = JSON.parse(`{"${name}": false, "sessionkey": "a"}`);
        expect(() => canonicalize(input, schema)).not.toThrow();
        expect(schema.safeParse(canonicalize(input, schema)).success).toBe(true);
      },
    );
  });
});
