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
 * The posting keys of a stored text: every character (code point) and every pair of adjacent characters
 * that holds no space. A word of one character is found by its character, a longer word by its pairs, so
 * a two-character Japanese word inside a longer phrase has its own key; words never hold a space, so
 * pairs across a space are never asked for and not kept.
 */
export function textGrams(text: string): Set<string> {
  const grams = new Set<string>();
  const chars = Array.from(text);
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] as string;
    if (char === ' ') continue;
    grams.add(char);
    const next = chars[index + 1];
    if (next !== undefined && next !== ' ') grams.add(char + next);
  }
  return grams;
}

/**
 * The keys a record must have to hold `word`: its one character, or each of its pairs. Holding them all is
 * necessary, not sufficient ("abca" has "ab", "bc", "ca" and not "abcab"), hence the check of candidates
 * against their stored text.
 */
export function wordGrams(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length === 1) return chars;
  const pairs = new Set<string>();
  for (let index = 0; index + 1 < chars.length; index++) pairs.add(`${chars[index]}${chars[index + 1]}`);
  return [...pairs];
}

/** Up to `radius` characters either side of the first hit of the first word, for a result list. */
export function excerpt(text: string, words: readonly string[], radius = 40): string {
  const hit = Math.max(0, ...words.slice(0, 1).map((word) => text.indexOf(word)));
  const start = Math.max(0, hit - radius);
  const end = Math.min(text.length, hit + (words[0]?.length ?? 0) + radius);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
