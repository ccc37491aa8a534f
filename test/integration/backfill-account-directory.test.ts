import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountKeys } from '../../lib/accounts/keys';
import { dynamo } from '../../lib/storage/clients';
import { createUser, seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

/** Accounts written before the tenants' directories are listed again once the migration has run. */

let stack: Stack;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
afterAll(() => stack.close());

const total = async (kind: string) =>
  ((await call(stack.url, `/api/${kind}/get`, { ApiKey: admin })).body.Response as { TotalCount: number })
    .TotalCount;

const forget = (key: { pk: string; sk: string }) =>
  dynamo().send(new DeleteCommand({ TableName: stack.tables.accounts, Key: key }));

const backfill = () =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/backfill-account-directory.ts'], {
    env: { ...process.env, KIROKU_TABLE_ACCOUNTS: stack.tables.accounts },
  });

describe('scripts/backfill-account-directory.ts', () => {
  it('lists users, groups and depts that have no directory entry, and nothing deleted', async () => {
    const user = await createUser(stack.url, admin, `old-${Date.now()}`);
    const group = Number(
      (await call(stack.url, '/api/groups/create', { ApiKey: admin, GroupName: 'Old' })).body.Id,
    );
    const dept = Number(
      (await call(stack.url, '/api/depts/create', { ApiKey: admin, DeptName: 'Old' })).body.Id,
    );
    const before = {
      users: await total('users'),
      groups: await total('groups'),
      depts: await total('depts'),
    };
    expect(before).toEqual({ users: 3, groups: 1, depts: 1 });
    // As an older version left them: no directory entries.
    await forget(accountKeys.directory(1, 'USER', user.userId));
    await forget(accountKeys.directory(1, 'GROUP', group));
    await forget(accountKeys.directory(1, 'DEPT', dept));
    expect([await total('users'), await total('groups'), await total('depts')]).toEqual([2, 0, 0]);

    const { stdout } = await backfill();
    expect(stdout).toContain('directory entries written');
    expect([await total('users'), await total('groups'), await total('depts')]).toEqual([3, 1, 1]);
    // Run again: nothing doubles.
    await backfill();
    expect([await total('users'), await total('groups'), await total('depts')]).toEqual([3, 1, 1]);

    // A deleted account gets no entry back.
    await call(stack.url, `/api/users/${user.userId}/delete`, { ApiKey: admin });
    await backfill();
    expect(await total('users')).toBe(2);
    const entry = await dynamo().send(
      new GetCommand({
        TableName: stack.tables.accounts,
        Key: accountKeys.directory(1, 'USER', user.userId),
      }),
    );
    expect(entry.Item).toBeUndefined();
  });
});
