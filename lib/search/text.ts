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
  return [...new Set(tokens)].join(' ');
}

/** The search words, split as the reference's Words(): on spaces, U+3000 and `"`; empty ones dropped. */
export function searchWords(searchText: string): string[] {
  const words = normalize(searchText)
    .split(/[ \u3000"]/)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

/** PartialMatch, the definition the index must agree with: the text holds every word as a substring. */
export function matchesAll(text: string, words: readonly string[]): boolean {
  return words.every((word) => text.includes(word));
}

/**
 * The posting keys of a stored text: every character (code point), every pair and every triple of
 * adjacent characters that holds no space. A word of one character is found by its character, of two by
 * its pair (so a two-character Japanese word inside a longer phrase has its own key), a longer one by its
 * triples, which are far more selective than pairs in any script. Words never hold a space, so n-grams
 * across a space are never asked for and not kept.
 */
export function textGrams(text: string): Set<string> {
  const grams = new Set<string>();
  const chars = Array.from(text);
  for (let index = 0; index < chars.length; index++) {
    const first = chars[index] as string;
    if (first === ' ') continue;
    grams.add(first);
    const second = chars[index + 1];
    if (second === undefined || second === ' ') continue;
    grams.add(first + second);
    const third = chars[index + 2];
    if (third !== undefined && third !== ' ') grams.add(first + second + third);
  }
  return grams;
}

/** The most n-grams of one word a search reads: any subset of a word's keys finds every record holding it. */
const MAX_WORD_GRAMS = 4;

/**
 * Keys a record must have to hold `word`: its character, its pair, or (longer words) up to four of its
 * triples, spread from its start to its end. Holding them is necessary, not sufficient ("abcab" has the
 * triples of "abcabc" but not the word), hence the check of candidates against their stored text.
 */
export function wordGrams(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length <= 3) return [chars.join('')];
  const triples = [
    ...new Set(chars.slice(0, -2).map((char, index) => char + chars[index + 1] + chars[index + 2])),
  ];
  if (triples.length <= MAX_WORD_GRAMS) return triples;
  const step = (triples.length - 1) / (MAX_WORD_GRAMS - 1);
  return [
    ...new Set(
      Array.from({ length: MAX_WORD_GRAMS }, (_, index) => triples[Math.round(index * step)] as string),
    ),
  ];
}

/** Up to `radius` characters either side of the first hit of the first word, for a result list. */
export function excerpt(text: string, words: readonly string[], radius = 40): string {
  const hit = Math.max(0, ...words.slice(0, 1).map((word) => text.indexOf(word)));
  const start = Math.max(0, hit - radius);
  const end = Math.min(text.length, hit + (words[0]?.length ?? 0) + radius);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
