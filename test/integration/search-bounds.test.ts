import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/search-index';
import { getUser } from '../../lib/accounts/repository';
import { searchIndex } from '../../lib/search/query';
import { MAX_SEARCH_WORDS } from '../../lib/search/text';
import { itemKeys } from '../../lib/sites/keys';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Search under hostile input, through the running stack with its streams (issue 23): a record whose text
 * NFKC makes four times longer, a fault in one document's write, and searches of too many words.
 * Faults are injected into the index's document writes by a word of their text, the one place a storage failure surfaces.
 */
const faults = vi.hoisted(() => ({ failing: new Set<string>() }));
vi.mock('../../lib/search/index-store', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/search/index-store')>();
  return {
    ...original,
    putDocument: async (tenantId: number, doc: { id: number; text: string }) => {
      for (const word of faults.failing) {
        if (doc.text.includes(word)) throw new Error(`injected: writing document ${doc.id}`);
      }
      return original.putDocument(tenantId, doc as Parameters<typeof original.putDocument>[1]);
    },
  };
});

/** Issue 23: 100,000 characters (300 KB of UTF-8, inside the Body bound), 400,000 under NFKC. */
const SEALS = '㍿'.repeat(100_000);
/** Beyond the config's poll bound: a 300 KB record is slow to write on a loaded machine. */
const FRESH = { timeout: 30_000, interval: 100 };

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let other: string;
let otherTenant: number;

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  other = accounts.other.apiKey;
  otherTenant = (await getUser(accounts.other.userId))?.tenantId ?? Number.NaN;
});
afterEach(() => faults.failing.clear());
afterAll(() => stack.close());

/** The ids and TotalCount of POST /api/search; its StatusCode when it is not 200. */
async function search(apiKey: string, text: string, page: object = {}) {
  const result = await call(stack.url, '/api/search', { ApiKey: apiKey, SearchText: text, ...page });
  const response = result.body.Response as { TotalCount: number; Data: { Id: number }[] } | undefined;
  return {
    status: result.body.StatusCode,
    ids: response?.Data.map((hit) => hit.Id) ?? [],
    total: response?.TotalCount,
  };
}
const ids = async (apiKey: string, text: string) => (await search(apiKey, text)).ids.sort((a, b) => a - b);

/** The stream record of an item's creation, as Lambda delivers it, from what the Items table holds. */
let sequence = 5_000;
async function inserted(tenantId: number, id: number): Promise<DynamoDBRecord> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName('items'), Key: itemKeys.item(tenantId, id), ConsistentRead: true }),
  );
  if (!Item) throw new Error(`no item ${id} in tenant ${tenantId}`);
  return {
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: String(sequence++),
      NewImage: marshall(Item, { removeUndefinedValues: true }) as Record<string, AttributeValue>,
    },
  };
}

describe('a record whose normalised text is over the document bound', () => {
  it('stays searchable by its text, beside other tenants’ changes made with it', {
    timeout: 120_000,
  }, async () => {
    const mine = await createSite(stack.url, admin, 0, { Title: 'Seals', ReferenceType: 'Results' });
    const theirs = await createSite(stack.url, other, 0, { Title: 'Neighbours', ReferenceType: 'Results' });
    // Created side by side, so that the stream brings them in one batch.
    const [big, near, far] = await Promise.all([
      createRecord(stack.url, admin, mine, { Title: 'sealword', Body: SEALS }),
      createRecord(stack.url, admin, mine, { Title: 'nearword' }),
      createRecord(stack.url, other, theirs, { Title: 'farword' }),
    ]);
    await expect.poll(() => ids(admin, '株式会社 sealword'), FRESH).toEqual([big]);
    await expect.poll(() => ids(admin, 'nearword'), FRESH).toEqual([near]);
    await expect.poll(() => ids(other, 'farword'), FRESH).toEqual([far]);
    // Changed again, side by side: the big record's change holds back neither tenant's.
    const updates = await Promise.all([
      call(stack.url, `/api/items/${big}/update`, {
        ApiKey: admin,
        Title: 'sealword2',
        Body: `x${SEALS.slice(1)}`,
      }),
      call(stack.url, `/api/items/${near}/update`, { ApiKey: admin, Title: 'nearword2' }),
      call(stack.url, `/api/items/${far}/update`, { ApiKey: other, Title: 'farword2' }),
    ]);
    expect(updates.map((update) => update.body.StatusCode)).toEqual([200, 200, 200]);
    await expect.poll(() => ids(admin, 'sealword2 x株式会社'), FRESH).toEqual([big]);
    await expect.poll(() => ids(admin, 'nearword2'), FRESH).toEqual([near]);
    await expect.poll(() => ids(other, 'farword2'), FRESH).toEqual([far]);
  });

  it('a rebuild over it completes, its answer free of storage’s text', async () => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Rebuilt seals', ReferenceType: 'Results' });
    const big = await createRecord(stack.url, admin, site, { Title: 'rebuiltseal', Body: SEALS });
    const started = await call(stack.url, '/api/BackgroundTasks/RebuildSearchIndexes', { ApiKey: admin });
    expect(started.body.StatusCode).toBe(200);
    const task = async () =>
      (await call(stack.url, `/api/BackgroundTasks/Tasks/${started.body.TaskId}/Get`, { ApiKey: admin })).body
        .Response as { Status: string; Message?: string };
    await expect
      .poll(async () => (await task()).Status, { timeout: 60_000, interval: 200 })
      .toMatch(/Completed|Failed/);
    const finished = await task();
    expect(finished.Status).toBe('Completed');
    expect(JSON.stringify(finished)).not.toMatch(/size|Item|exceeded/i);
    expect(await ids(admin, '株式会社 rebuiltseal')).toEqual([big]);
  });
});

describe('the stream handler, one tenant’s fault', () => {
  it('reports the failed record and what follows it, and writes every other change of the batch', async () => {
    const mine = await createSite(stack.url, admin, 0, { Title: 'Faulty', ReferenceType: 'Results' });
    const theirs = await createSite(stack.url, other, 0, { Title: 'Healthy', ReferenceType: 'Results' });
    // The stream poller meets the same fault; the batch below is handed to the handler as Lambda would.
    faults.failing.add('brokenword');
    const failing = await createRecord(stack.url, admin, mine, { Title: 'brokenword' });
    const sameTenant = await createRecord(stack.url, admin, mine, { Title: 'siblingword' });
    const otherTenantRecord = await createRecord(stack.url, other, theirs, { Title: 'strangerword' });
    const event = {
      Records: [
        await inserted(1, failing),
        await inserted(otherTenant, otherTenantRecord),
        await inserted(1, sameTenant),
      ],
    };
    const result = await handler(event);
    // A stream is ordered: the retry starts at the failed record, and everything after it runs again.
    expect(result.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(
      event.Records.map((record) => record.dynamodb?.SequenceNumber),
    );
    const found = async (tenantId: number, text: string) =>
      (await searchIndex(tenantId, text)).map((match) => match.id);
    expect(await found(otherTenant, 'strangerword')).toEqual([otherTenantRecord]);
    expect(await found(1, 'siblingword')).toEqual([sameTenant]);
    // Once the fault is gone, the retry indexes it.
    faults.failing.clear();
    expect((await handler(event)).batchItemFailures).toEqual([]);
    expect(await found(1, 'brokenword')).toEqual([failing]);
  });
});

describe('search words', () => {
  const words = (count: number) => Array.from({ length: count }, (_, at) => `w${at}`).join(' ');

  it(`answers 400 naming the bound for more than ${MAX_SEARCH_WORDS} words, on /api/search`, async () => {
    const result = await call(stack.url, '/api/search', {
      ApiKey: admin,
      SearchText: words(MAX_SEARCH_WORDS + 1),
    });
    expect(result.body).toMatchObject({
      StatusCode: 400,
      Errors: [{ Property: 'SearchText', Problem: expect.stringContaining(`${MAX_SEARCH_WORDS} words`) }],
    });
    expect((await search(admin, words(MAX_SEARCH_WORDS))).status).toBe(200);
  });

  it.each([
    ['too many words', words(MAX_SEARCH_WORDS + 1), `${MAX_SEARCH_WORDS} words`],
    ['too long a text', 'x'.repeat(1025), '1024 characters'],
  ])('answers 400 naming the bound on View.Search: %s', async (_name, text, bound) => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Words', ReferenceType: 'Results' });
    const result = await call(stack.url, `/api/items/${site}/get`, { ApiKey: admin, View: { Search: text } });
    expect(result.body).toMatchObject({
      StatusCode: 400,
      Errors: [{ Property: 'View.Search', Problem: expect.stringContaining(bound) }],
    });
  });
});
