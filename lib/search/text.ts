import { OutOfBoundsError } from '../errors';

/**
 * The text side of search (CONTRACT section 9), free of storage: how a full text is stored and compared,
 * how a search text splits into words, and which posting keys (character n-grams) stand for a text.
 *
 * One normal form on both sides (NFKC, then lower case, well-formed UTF-16), so that "Ｓｅａｒｃｈ",
 * "search" and "SEARCH" are one word and a lone surrogate can never match half of a pair.
 */

export function normalize(text: string): string {
  return text.toWellFormed().normalize('NFKC').toLowerCase();
}

/**
 * The stored full text, as the reference stores Items.FullText: line breaks and U+3000 become spaces, the
 * text splits on spaces, empty pieces are dropped, repeats keep their first place, one space joins them;
 * here normalised first, so no piece holds a space that normalising would have made.
 */
export function storedText(parts: readonly string[]): string {
  const tokens = normalize(parts.join(' '))
    .replace(/[\u3000\r\n]/g, ' ')
    .split(' ')
    .map((token) => token.trim())
    .filter((token) => token.length > 0);
  return boundText([...new Set(tokens)].join(' '));
}

/**
 * The most UTF-8 bytes of full text a document stores and indexes. Normalising may lengthen a text many
 * times (NFKC makes "㍿" four characters, U+FDFA eighteen), so a record inside its own 380 KB bound could
 * give a text over DynamoDB's 400 KB item; and every n-gram of the text is a posting write. Beyond this
 * bound a record's text is not searchable: what is stored is the text's start, cut at a code point, and
 * the answer is still exactly a substring scan of what is stored.
 */
export const MAX_STORED_TEXT_BYTES = 64 * 1024;

/** `text` cut to at most MAX_STORED_TEXT_BYTES of UTF-8, at the end of a code point. */
function boundText(text: string): string {
  // At most three UTF-8 bytes per UTF-16 unit: a text this short never needs encoding to know it fits.
  if (text.length * 3 <= MAX_STORED_TEXT_BYTES) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_STORED_TEXT_BYTES) return text;
  let end = MAX_STORED_TEXT_BYTES;
  // Back to the first byte of a code point (continuation bytes are 10xxxxxx).
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8').trimEnd();
}

/** The search words, split as the reference's Words(): on spaces, U+3000 and `"`; empty ones dropped. */
export function searchWords(searchText: string): string[] {
  const words = normalize(searchText)
    .split(/[ \u3000"]/)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

/** The longest search text, in UTF-16 units: SearchText's bound, and View.Search's. */
export const MAX_SEARCH_TEXT = 1024;
/**
 * The most words one search takes. Each word is read as up to five posting keys, all side by side, so
 * without a bound a search of hundreds of one-character words is a thousand queries.
 */
export const MAX_SEARCH_WORDS = 16;

/**
 * The words of `searchText` (searchWords), refused with a 400 naming `property` and the bound when the
 * text is longer than MAX_SEARCH_TEXT or holds more than MAX_SEARCH_WORDS words: before any work.
 */
export function boundedSearchWords(searchText: string, property: string): string[] {
  if (searchText.length > MAX_SEARCH_TEXT) {
    throw new OutOfBoundsError(property, `at most ${MAX_SEARCH_TEXT} characters`);
  }
  const words = searchWords(searchText);
  if (words.length > MAX_SEARCH_WORDS) {
    throw new OutOfBoundsError(property, `at most ${MAX_SEARCH_WORDS} words (this one has ${words.length})`);
  }
  return words;
}

/** PartialMatch, the definition the index must agree with: the text holds every word as a substring. */
export function matchesAll(text: string, words: readonly string[]): boolean {
  return words.every((word) => text.includes(word));
}

/** The longest n-grams kept: a word of up to this many characters is one posting key. */
export const GRAM_SIZE = 4;
/** Tokens of up to this many characters also have a key of their own (tokenKey). */
const TOKEN_KEY_MAX = 32;
/** Intl.Segmenter is given the text in pieces of at most this many characters. */
const SEGMENT_PIECE = 1000;

/** The posting key of a whole token: a space, which no n-gram holds, then the token. */
export const tokenKey = (token: string) => ` ${token}`;

const words = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * What decides where Intl.Segmenter cuts words: ICU's data, which a new Node may change. A document's
 * token keys are known exactly only while this is what made them (lib/search/index-writer.ts).
 */
export const KEYING = `icu-${process.versions.icu ?? 'none'}`;

/**
 * The posting keys of a stored text: every n-gram of one to GRAM_SIZE adjacent characters (code points)
 * that holds no space, and every token longer than GRAM_SIZE and of at most TOKEN_KEY_MAX characters.
 * Tokens are the text's pieces between spaces, and the words Intl.Segmenter finds in it ("report" and
 * "pdf" in "(report,pdf)", "データベース" in "データベースの設計"): each a substring of the text. A word of
 * up to GRAM_SIZE characters is found by its own n-gram (so a two-character Japanese word inside a longer
 * phrase has its own key), a longer one by some of its GRAM_SIZE-grams, which are selective in any script.
 * Words never hold a space, so n-grams across a space are never asked for and not kept. A token key
 * proves that a longer word is in the text when the word is the whole token (lib/search/query.ts).
 */
export function textGrams(text: string): Set<string> {
  const grams = new Set<string>();
  const addToken = (token: string, length: number) => {
    if (length > GRAM_SIZE && length <= TOKEN_KEY_MAX) grams.add(tokenKey(token));
  };
  for (const token of text.split(' ')) {
    const chars = Array.from(token);
    for (let index = 0; index < chars.length; index++) {
      let gram = '';
      for (let size = 0; size < GRAM_SIZE && index + size < chars.length; size++) {
        gram += chars[index + size];
        grams.add(gram);
      }
    }
    addToken(token, chars.length);
  }
  for (const piece of segmentPieces(text)) {
    for (const { segment, isWordLike } of words.segment(piece)) {
      if (isWordLike && !segment.includes(' ')) addToken(segment, codePoints(segment));
    }
  }
  return grams;
}

/** `text` in pieces of at most SEGMENT_PIECE characters, cut at a space where there is one. */
function segmentPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > SEGMENT_PIECE) {
    let end = text.lastIndexOf(' ', start + SEGMENT_PIECE);
    if (end <= start) {
      end = start + SEGMENT_PIECE;
      // Never between the halves of a surrogate pair.
      if (/[\uDC00-\uDFFF]/.test(text.charAt(end))) end--;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The most n-grams of one word a search reads: any subset of a word's keys finds every record holding it. */
const MAX_WORD_GRAMS = 4;

/**
 * Keys a record must have to hold `word`: the word itself when it is at most GRAM_SIZE characters, or up
 * to four of its GRAM_SIZE-grams, spread from its start to its end. Holding them is necessary, not
 * sufficient ("abcdab" has the 4-grams of "abcdabcd" but not the word), hence the check of candidates
 * against their stored text unless a token key proves them.
 */
export function wordGrams(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length <= GRAM_SIZE) return [chars.join('')];
  const grams = [
    ...new Set(
      chars.slice(0, chars.length - GRAM_SIZE + 1).map((_, at) => chars.slice(at, at + GRAM_SIZE).join('')),
    ),
  ];
  if (grams.length <= MAX_WORD_GRAMS) return grams;
  const step = (grams.length - 1) / (MAX_WORD_GRAMS - 1);
  return [
    ...new Set(
      Array.from({ length: MAX_WORD_GRAMS }, (_, index) => grams[Math.round(index * step)] as string),
    ),
  ];
}

/** The key whose postings prove `word` for an exact document, when the word can be a whole token. */
export function wordToken(word: string): string | undefined {
  const length = Array.from(word).length;
  return length > GRAM_SIZE && length <= TOKEN_KEY_MAX ? tokenKey(word) : undefined;
}

/** Up to `radius` characters either side of the first hit of the first word, for a result list. */
export function excerpt(text: string, words: readonly string[], radius = 40): string {
  const hit = Math.max(0, ...words.slice(0, 1).map((word) => text.indexOf(word)));
  const start = Math.max(0, hit - radius);
  const end = Math.min(text.length, hit + (words[0]?.length ?? 0) + radius);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
