import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemKeys } from '../../lib/sites/keys';
import { dynamo } from '../../lib/storage/clients';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** Records written before the RecordsByStatus index are found again once the migration has run. */

let stack: Stack;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
afterAll(() => stack.close());

describe('scripts/backfill-record-index.ts', () => {
  it('indexes records that carry no StatusKey and rewrites the per-Status counts', async () => {
    const site = await createSite(stack.url, admin, 0, { ReferenceType: 'Results' });
    const ids = [
      await createRecord(stack.url, admin, site, { Title: 'a', Status: 910 }),
      // Status 0 given: without it a create takes the DefaultInput, 100.
      await createRecord(stack.url, admin, site, { Title: 'b', Status: 0 }),
    ];
    // As an older version left them: no index keys, no per-Status counts.
    for (const id of ids) {
      await dynamo().send(
        new UpdateCommand({
          TableName: stack.tables.items,
          Key: itemKeys.item(1, id),
          UpdateExpression: 'REMOVE StatusKey, RecentKey',
        }),
      );
    }
    for (const status of [0, 910]) {
      await dynamo().send(
        new DeleteCommand({ TableName: stack.tables.items, Key: itemKeys.statusCount(1, site, status) }),
      );
    }
    const total = async (view: object) =>
      (
        (await call(stack.url, `/api/items/${site}/get`, { ApiKey: admin, View: view })).body.Response as {
          TotalCount: number;
        }
      ).TotalCount;
    expect(await total({ ColumnFilterHash: { Status: '910' } })).toBe(0);
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/backfill-record-index.ts'], {
      env: { ...process.env, KIROKU_TABLE_ITEMS: stack.tables.items },
    });
    expect(await total({ ColumnFilterHash: { Status: '910' } })).toBe(1);
    expect(await total({ ColumnFilterHash: { Status: '[0,910]' } })).toBe(2);
    expect(await total({ ColumnFilterHash: { Title: 'b' } })).toBe(1);
  });
});
