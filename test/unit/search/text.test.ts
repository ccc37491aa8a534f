import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutOfBoundsError } from '../../../lib/errors';
import { bucketOf, encodeSegment, idsInSegment, SEGMENT_BUCKETS } from '../../../lib/search/segment-codec';
import {
  boundedSearchWords,
  MAX_SEARCH_WORDS,
  MAX_STORED_TEXT_BYTES,
  searchWords,
  storedText,
  textGrams,
  tokenKey,
  wordGrams,
  wordToken,
} from '../../../lib/search/text';

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

  it('keys whole tokens longer than one n-gram, and only whole tokens', () => {
    const keys = textGrams(storedText(['concatenate cat 全文検索システム']));
    expect(keys.has(tokenKey('concatenate'))).toBe(true);
    expect(keys.has(tokenKey('全文検索システム'))).toBe(true);
    expect(keys.has(tokenKey('cat'))).toBe(false);
    expect(keys.has(tokenKey('catenate'))).toBe(false);
    expect(keys.has('conc')).toBe(true);
    expect(keys.has('conca')).toBe(false);
    expect(wordToken('cat')).toBeUndefined();
    expect(wordToken('catenate')).toBe(tokenKey('catenate'));
    expect([...keys].filter((key) => key.includes(' ') && !key.startsWith(' '))).toEqual([]);
  });

  it.each([
    ['punctuation between words', '(report,summary.)', ['report', 'summary'], ['report,summary']],
    ['a Japanese word inside a phrase', 'データベースの設計', ['データベース'], ['ベースの設計']],
    ['a file name stays one word', 'minutes.pdf', ['minutes.pdf'], ['minutes']],
  ])('keys the words Intl.Segmenter finds: %s', (_name, text, keyed, notKeyed) => {
    const keys = textGrams(storedText([text]));
    for (const word of keyed) expect(keys.has(tokenKey(word)), word).toBe(true);
    for (const word of notKeyed) expect(keys.has(tokenKey(word)), word).toBe(false);
  });

  it('cuts words in pieces of at most 1,000 characters, at a space, never inside a character', () => {
    const long = `${'x'.repeat(990)} ${'😀'.repeat(600)} (lasting,words)`;
    const keys = textGrams(storedText([long]));
    expect(keys.has(tokenKey('lasting'))).toBe(true);
    expect(keys.has(tokenKey('words'))).toBe(true);
    expect([...keys].every((key) => key.isWellFormed())).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '😀', ' ', ','), maxLength: 3000 }), (text) => {
        const stored = storedText([text]);
        for (const key of textGrams(stored)) {
          expect(key.isWellFormed()).toBe(true);
          // Every token key is a substring of the text: it proves what it names.
          if (key.startsWith(' ')) expect(stored.includes(key.slice(1))).toBe(true);
        }
      }),
    );
  });

  it("a segment row gives back each gram's ids, and none for a gram it does not hold", () => {
    const gram = fc.string({ unit: fc.constantFrom('a', 'b', '東', '😀', ' '), minLength: 1, maxLength: 3 });
    const ids = fc
      .uniqueArray(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { minLength: 1, maxLength: 50 })
      .map((list) => [...list].sort((a, b) => a - b));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(gram, ids), { selector: ([name]) => name, maxLength: 20 }),
        gram,
        (postings, other) => {
          const bytes = encodeSegment(postings);
          for (const [name, list] of postings) expect(idsInSegment(bytes, name)).toEqual(list);
          if (!postings.some(([name]) => name === other)) expect(idsInSegment(bytes, other)).toEqual([]);
          expect(bucketOf(other)).toBeGreaterThanOrEqual(0);
          expect(bucketOf(other)).toBeLessThan(SEGMENT_BUCKETS);
        },
      ),
    );
  });

  describe('the stored text bound', () => {
    const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

    it('keeps the start of a text that NFKC makes longer than the bound, and only the start', () => {
      // Issue 23: 300 KB of "㍿" is 1.2 MB of "株式会社" once normalised.
      const stored = storedText(['Site', '㍿'.repeat(100_000), 'tailword']);
      expect(bytes(stored)).toBeLessThanOrEqual(MAX_STORED_TEXT_BYTES);
      expect(bytes(stored)).toBeGreaterThan(MAX_STORED_TEXT_BYTES - 4);
      expect(stored.startsWith('site 株式会社株式会社')).toBe(true);
      // What lies beyond the bound is not searchable.
      expect(stored.includes('tailword')).toBe(false);
    });

    it.each([
      ['one byte', 'a'],
      ['three bytes', '東'],
      ['four bytes (a surrogate pair)', '😀'],
    ])('cuts at the end of a code point: %s', (_name, unit) => {
      const stored = storedText([`x${unit.repeat(MAX_STORED_TEXT_BYTES)}`]);
      expect(stored.isWellFormed()).toBe(true);
      expect(bytes(stored)).toBeLessThanOrEqual(MAX_STORED_TEXT_BYTES);
      expect(bytes(stored)).toBeGreaterThan(MAX_STORED_TEXT_BYTES - 4);
    });

    it('leaves a text inside the bound as it is', () => {
      const text = 'b'.repeat(MAX_STORED_TEXT_BYTES);
      expect(storedText([text])).toBe(text);
    });
  });

  describe('boundedSearchWords', () => {
    const words = (count: number) => Array.from({ length: count }, (_, at) => `w${at}`).join(' ');

    it('takes up to the bound of words, counted after splitting and removing repeats', () => {
      expect(boundedSearchWords(words(MAX_SEARCH_WORDS), 'SearchText')).toHaveLength(MAX_SEARCH_WORDS);
      expect(boundedSearchWords(`${words(MAX_SEARCH_WORDS)} w0 W0`, 'SearchText')).toHaveLength(
        MAX_SEARCH_WORDS,
      );
    });

    it.each([
      ['too many words', words(MAX_SEARCH_WORDS + 1), `at most ${MAX_SEARCH_WORDS} words`],
      [
        '512 one-character words',
        Array.from({ length: 512 }, (_, at) => String.fromCodePoint(0x4e00 + at)).join(' '),
        `at most ${MAX_SEARCH_WORDS} words`,
      ],
      ['too long a text', 'x'.repeat(1025), 'at most 1024 characters'],
    ])('refuses %s, naming the property and the bound', (_name, text, bound) => {
      expect(() => boundedSearchWords(text, 'View.Search')).toThrow(OutOfBoundsError);
      try {
        boundedSearchWords(text, 'View.Search');
      } catch (error) {
        expect((error as OutOfBoundsError).problems).toEqual([
          { Property: 'View.Search', Problem: expect.stringContaining(bound) },
        ]);
      }
    });
  });
});
