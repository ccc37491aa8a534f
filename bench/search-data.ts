import { seededRandom } from './site-data';

/**
 * Records for the search benchmark: about 500 characters each, English pseudo-words from a vocabulary of
 * 5,000 and Japanese phrases from 400 words joined by particles, as mixed business text. Deterministic.
 */

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ser',
  'ton',
  'vex',
  'dra',
  'pul',
  'quin',
  'ber',
  'sta',
  'ri',
  'gon',
  'fe',
  'lun',
  'chi',
  'war',
  'de',
  'nox',
  'pa',
];
const KANJI =
  '東京都大阪府会議室予約課題処理完了報告書検索全文日本語文章顧客管理営業部品質保証請求支払確認作業手順変更申請承認担当者期限調査結果資料添付修正対応問題発生原因';
const KANA = 'あいうえおかきくけこさしすせそたちつてとなにぬねのまみむめもらりるれろ';
const PARTICLES = ['の', 'を', 'が', 'に', 'で', 'と', 'は'];

export interface SearchData {
  readonly english: readonly string[];
  readonly japanese: readonly string[];
  text(index: number): string;
}

export function searchData(seed = 20_260_101): SearchData {
  const random = seededRandom(seed);
  const below = (n: number) => Math.floor(random() * n);
  const english = [
    ...new Set(
      Array.from({ length: 6_000 }, () =>
        Array.from({ length: 2 + below(3) }, () => SYLLABLES[below(SYLLABLES.length)]).join(''),
      ),
    ),
  ].slice(0, 5_000);
  const japanese = [
    ...new Set(
      Array.from({ length: 600 }, () => {
        const kanji = Array.from({ length: 2 + below(2) }, () => KANJI[below(KANJI.length)]).join('');
        return random() < 0.3 ? kanji + KANA[below(KANA.length)] : kanji;
      }),
    ),
  ].slice(0, 400);
  const text = (index: number) => {
    const recordRandom = seededRandom(seed + index);
    const pick = <T>(list: readonly T[]) => list[Math.floor(recordRandom() * list.length)] as T;
    let result = '';
    while (result.length < 500) {
      if (recordRandom() < 0.6) result += `${pick(english)} `;
      else result += `${pick(japanese)}${pick(PARTICLES)}${pick(japanese)}${pick(PARTICLES)} `;
    }
    return result.slice(0, 500);
  };
  return { english, japanese, text };
}
