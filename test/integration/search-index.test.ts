import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockOf, type SearchDocument, updatePosting } from '../../lib/search/index-store';
import { applyDocuments, tombstone } from '../../lib/search/index-writer';
import { searchIndex } from '../../lib/search/query';
import { indexPage } from '../../lib/search/rebuild-writer';
import { matchesAll, searchWords, storedText, tokenKey } from '../../lib/search/text';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The index against its definition: for random records of English, Japanese and mixed text, random edits
 * and deletions, the search through the index answers exactly what a substring scan of the same stored
 * texts answers. Straight against DynamoDB Local; each run in a tenant of its own.
 */

let stack: Stack;
let nextTenant = 5_000;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const english = fc.constantFrom(
  'search',
  'index',
  'Record',
  'TABLE',
  'cat',
  'concatenate',
  'a',
  'the',
  'Ｆｕｌｌ',
);
const japanese = fc.constantFrom(
  '東京都',
  '京都',
  '検索',
  '全文検索',
  'インデックス',
  'です',
  '日本語の文章',
  'ｶﾀｶﾅ',
  '都',
);
const piece = fc.oneof(
  english,
  japanese,
  fc.constantFrom('(search,index)', 'concatenate.', 'インデックスの検索', 'record-table'),
  fc.string({ unit: fc.constantFrom('a', 'b', '東', '京', 'ä', ' ', '　', '"', ',', '.') }),
);
const rawText = fc
  .array(piece, { maxLength: 8 })
  .map((pieces) => pieces.join(fc.sample(fc.constantFrom(' ', '', '　'), 1)[0]));

type Op =
  | { readonly kind: 'put'; readonly id: number; readonly text: string }
  | { readonly kind: 'delete'; readonly id: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      id: fc.integer({ min: 1, max: 12 }),
      text: rawText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 1, max: 12 }) }),
  },
);

const query = fc.oneof(
  english,
  japanese,
  fc.tuple(english, japanese).map(([a, b]) => `${a} ${b}`),
  fc.tuple(japanese, japanese).map(([a, b]) => `${a}　"${b}"`),
  fc.string({ unit: fc.constantFrom('a', 'b', '東', '京', 'Ä', ' ') }),
  fc.constantFrom('京', 'E', '東京', 'at', 'ｄｅｘ', '文章', 'インデックス', 'concatenate', 'search,index'),
);

describe('the search index', () => {
  it('always answers what a substring scan of the stored texts answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { maxLength: 4 }),
        async (batches, queries, rebuildAfter) => {
          const tenantId = nextTenant++;
          const model = new Map<number, string>();
          // Ids are never reused (one sequence): a deleted record does not come back.
          const deleted = new Set<number>();
          const current = new Map<number, SearchDocument>();
          let ver = 1;
          for (const batch of batches) {
            const docs = new Map<number, SearchDocument>();
            for (const change of batch) {
              if (deleted.has(change.id)) continue;
              if (change.kind === 'delete') {
                model.delete(change.id);
                deleted.add(change.id);
                docs.set(change.id, tombstone(change.id, 1, ver));
              } else {
                const text = storedText(['Site', change.text]);
                model.set(change.id, text);
                docs.set(change.id, {
                  id: change.id,
                  siteId: 1,
                  kind: 'record',
                  title: '',
                  text,
                  ver: ver++,
                  updatedAt: ver,
                });
              }
            }
            // Most batches go the live way; some are written while the live path is off, then repaired
            // by a rebuild: whole-page segments over every current document, then tombstones for the
            // documents of deleted records, as lib/search/rebuild.ts does it.
            if (rebuildAfter.shift() !== true) await applyDocuments(tenantId, [...docs.values()]);
            else {
              for (const [id, doc] of docs) if (doc.text !== '') current.set(id, doc);
              for (const id of deleted) current.delete(id);
              const all = [...current.values()].sort((a, b) => a.id - b.id);
              for (let at = 0; at < all.length; at += 3) {
                await indexPage(tenantId, 1, all[at - 1]?.id ?? 0, all.slice(at, at + 3));
              }
              await applyDocuments(
                tenantId,
                [...deleted].map((id) => tombstone(id, 1, ver)),
              );
            }
            for (const [id, doc] of docs) if (doc.text !== '') current.set(id, doc);
            for (const searchText of queries) {
              const words = searchWords(searchText);
              const expected =
                words.length === 0
                  ? []
                  : [...model].filter(([, text]) => matchesAll(text, words)).map(([id]) => id);
              const found = (await searchIndex(tenantId, searchText)).map((doc) => doc.id);
              expect(found.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
            }
          }
        },
      ),
      { numRuns: Number(process.env.SEARCH_RUNS ?? 40) },
    );
  }, 240_000);

  it('a document keyed by another word cutting is checked against its text, never proven by a token of that cutting', async () => {
    const tenantId = nextTenant++;
    const doc = (ver: number, text: string): SearchDocument => ({
      id: 1,
      siteId: 1,
      kind: 'record',
      title: '',
      text: storedText(['Site', text]),
      ver,
      updatedAt: ver,
    });
    const found = async (text: string) => (await searchIndex(tenantId, text)).map((match) => match.id);
    await applyDocuments(tenantId, [doc(1, 'foobar')]);
    expect(await found('oobar')).toEqual([1]);
    // As a writer on another ICU leaves it: its cutting found "oobar" in "foobar", which this one does not.
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('searchIndex'),
        Key: { pk: `T${tenantId}#DOC`, sk: '1'.padStart(15, '0') },
        UpdateExpression: 'SET Keying = :keying',
        ExpressionAttributeValues: { ':keying': 'icu-0' },
      }),
    );
    await updatePosting(tenantId, tokenKey('oobar'), blockOf(1), new Set([1]), 'ADD');
    // The new text has every 4-gram of "oobar" but not the word; the old cutting's token is never removed.
    await applyDocuments(tenantId, [doc(2, 'zooba obarz')]);
    expect(await found('oobar')).toEqual([]);
    expect(await found('zooba')).toEqual([1]);
  });
});
