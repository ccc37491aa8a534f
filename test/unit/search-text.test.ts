import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packIds, unpackIds } from '../../lib/search/id-codec';
import { searchWords, storedText, textGrams, wordGrams } from '../../lib/search/text';

describe('search text', () => {
  it.each([
    ['spaces, U+3000 and quotes', 'a b\u3000c"d"', ['a', 'b', 'c', 'd']],
    ['NFKC and lower case', 'ＡＢＣ ｶﾀｶﾅ', ['abc', 'カタカナ']],
    ['repeats once', 'x X x', ['x']],
    ['nothing but separators', ' \u3000""', []],
  ])('splits search words: %s', (_name, text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  it('stores the full text as the reference does: split on spaces and line breaks, distinct, one space', () => {
    expect(storedText(['Site', 'Title  title\r\nBody\u3000本文', 'Body'])).toBe('site title body 本文');
  });

  it('every key a word asks for is a key of any text that holds the word', () => {
    const unit = fc.constantFrom('a', 'b', 'c', '東', '京', '都', ' ', '😀');
    fc.assert(
      fc.property(fc.string({ unit }), fc.string({ unit, minLength: 1 }), (text, word) => {
        const stored = storedText([text]);
        const [normalized] = searchWords(word);
        if (normalized === undefined || !stored.includes(normalized)) return;
        const keys = textGrams(stored);
        for (const gram of wordGrams(normalized)) expect(keys.has(gram)).toBe(true);
      }),
    );
  });

  it('packs ascending ids and unpacks them as they were', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { maxLength: 200 }),
        (ids) => {
          const sorted = [...ids].sort((a, b) => a - b);
          expect(unpackIds(packIds(sorted))).toEqual(sorted);
        },
      ),
    );
  });
});
