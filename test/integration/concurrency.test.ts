import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdministrator } from '../../lib/accounts/bootstrap';
import { findUserIdByLoginId } from '../../lib/accounts/repository';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { createUser, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** Issue 10, defects 7 (concurrent updates of one record) and 9 (the first start, recorded once). */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let table: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
type Row = { Ver: number; ClassHash?: Record<string, string>; NumHash?: Record<string, number> };
const read = async (id: number) =>
  ((await post(`/api/items/${id}/get`, { ApiKey: admin })).body.Response as { Data: Row[] }).Data[0] as Row;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  table = await createSite(stack.url, admin, 0, { Title: 'Results', ReferenceType: 'Results' });
});
afterAll(() => stack.close());

describe('concurrent updates of one record (defect 7)', () => {
  it('8 simultaneous updates of different fields all succeed, each applied whole', async () => {
    const id = await createRecord(stack.url, admin, table, { Title: 'shared' });
    const letters = [...'ABCDEFGH'];
    const answers = await Promise.all(
      letters.map((letter, index) =>
        post(`/api/items/${id}/update`, {
          ApiKey: admin,
          ClassHash: { [`Class${letter}`]: `value ${letter}` },
          NumHash: { [`Num${letter}`]: index + 1 },
          // A version each: Ver then counts the updates applied.
          VerUp: true,
        }),
      ),
    );
    expect(answers.map((answer) => answer.body.StatusCode)).toEqual(letters.map(() => 200));
    const record = await read(id);
    expect(record.Ver).toBe(1 + letters.length);
    letters.forEach((letter, index) => {
      expect(record.ClassHash?.[`Class${letter}`]).toBe(`value ${letter}`);
      expect(record.NumHash?.[`Num${letter}`]).toBe(index + 1);
    });
  });

  it('8 simultaneous updates of one field: every one succeeds and the last one written stays', async () => {
    const id = await createRecord(stack.url, admin, table);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        post(`/api/items/${id}/update`, {
          ApiKey: admin,
          ClassA: `writer ${index}`,
          ClassB: `writer ${index}`,
          VerUp: true,
        }),
      ),
    );
    expect(answers.every((answer) => answer.body.StatusCode === 200)).toBe(true);
    const record = await read(id);
    expect(record.Ver).toBe(9);
    // Atomic: both fields come from the same update.
    expect(record.ClassHash?.ClassA).toBe(record.ClassHash?.ClassB);
  });

  it('updates racing a delete: each either applies or finds the record really gone (404)', async () => {
    const id = await createRecord(stack.url, admin, table);
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, index) =>
        post(`/api/items/${id}/update`, { ApiKey: admin, ClassA: `${index}` }),
      ),
      post(`/api/items/${id}/delete`, { ApiKey: admin }),
    ]);
    const codes = answers.map((answer) => answer.body.StatusCode);
    expect(codes.at(-1)).toBe(200);
    expect(codes.every((code) => code === 200 || code === 404)).toBe(true);
    expect((await post(`/api/items/${id}/get`, { ApiKey: admin })).body.StatusCode).toBe(404);
  });
});

describe('the first start (defect 9)', () => {
  it('is not repeated after the administrator was renamed, nor after it was deleted', async () => {
    // A second privileged user may rename the administrator (CONTRACT section 5).
    useSettings(
      loadSettings({ ...process.env, KIROKU_PARAM_Security_PrivilegedUsers: '["Administrator","Root"]' }),
    );
    const root = await createUser(stack.url, admin, 'Root', { TenantManager: true });
    const renamed = await post(`/api/users/${accounts.admin.userId}/update`, {
      ApiKey: root.apiKey,
      LoginId: 'Formerly-Administrator',
    });
    expect(renamed.body.StatusCode, renamed.text).toBe(200);

    const again = await bootstrapAdministrator({ password: 'another password' });
    expect(again.created).toBe(false);
    expect(await findUserIdByLoginId('Administrator')).toBeUndefined();

    const deleted = await post(`/api/users/${accounts.admin.userId}/delete`, { ApiKey: root.apiKey });
    expect(deleted.body.StatusCode, deleted.text).toBe(200);
    expect((await bootstrapAdministrator()).created).toBe(false);
    expect(await findUserIdByLoginId('Administrator')).toBeUndefined();
    useSettings(undefined);
  });
});
