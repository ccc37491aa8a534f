import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../lib/routes';
import { usersAuthenticate, usersCreate, usersUpdate } from '../../lib/routes/accounts';
import { itemsCreate, itemsUpdate } from '../../lib/routes/items';
import { sessionsSet } from '../../lib/routes/sessions';
import {
  itemsCreatesite,
  itemsGetclosestsiteid,
  itemsImportsitepackage,
  itemsUpdatesite,
} from '../../lib/routes/sites';
import { childSiteIds } from '../../lib/sites/repository';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { bodyText, expectWellFormed, hostileBody } from '../fixtures/hostile';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Every string property at and beyond its length, every number at and beyond its bounds, every free-form
 * object at and beyond 64 levels (test/fixtures/hostile.ts), on real targets. Invariants: never a 500 or a
 * stack trace, always the ApiResult envelope, and a refused request leaves what it aimed at as it was.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let plain: TestUser;
let folder: number;
let table: number;
let record: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  plain = await createUser(stack.url, admin, `plain-${Date.now()}`);
  folder = await createSite(stack.url, admin, 0, { Title: 'Folder' });
  table = await createSite(stack.url, admin, folder, { Title: 'Table', ReferenceType: 'Results' });
  record = await createRecord(stack.url, admin, table, { Title: 'Target', NumA: 1, ClassA: 'a' });
});
afterAll(() => stack.close());

interface Target {
  readonly route: Route;
  readonly id: () => number;
  /** What the request aims at, as the API shows it; unchanged after a refusal. */
  readonly snapshot: () => Promise<unknown>;
}

const records = () => post(`/api/items/${table}/get`, { ApiKey: admin }).then((r) => r.body);
const targets: Record<string, Target> = {
  'record update': {
    route: itemsUpdate,
    id: () => record,
    snapshot: () => post(`/api/items/${record}/get`, { ApiKey: admin }).then((r) => r.body),
  },
  'record create': { route: itemsCreate, id: () => table, snapshot: records },
  'site update': {
    route: itemsUpdatesite,
    id: () => table,
    snapshot: () => post(`/api/items/${table}/getsite`, { ApiKey: admin }).then((r) => r.body),
  },
  'site create': { route: itemsCreatesite, id: () => folder, snapshot: () => childSiteIds(1, folder) },
  'package import': {
    route: itemsImportsitepackage,
    id: () => folder,
    snapshot: () => childSiteIds(1, folder),
  },
  'user update': {
    route: usersUpdate,
    id: () => plain.userId,
    snapshot: () => post(`/api/users/${plain.userId}/get`, { ApiKey: admin }).then((r) => r.body),
  },
  'user create': {
    route: usersCreate,
    id: () => 0,
    snapshot: () => post('/api/users/get', { ApiKey: admin }).then((r) => r.body),
  },
  'session value': {
    route: sessionsSet,
    id: () => 0,
    snapshot: () => post('/api/sessions/get', { ApiKey: admin, SessionKey: 'k' }).then((r) => r.body),
  },
  login: { route: usersAuthenticate, id: () => 0, snapshot: async () => undefined },
  'site lookup': { route: itemsGetclosestsiteid, id: () => table, snapshot: async () => undefined },
};

describe('hostile values in every property', () => {
  it.each(Object.entries(targets))(
    '%s: no 500, no stack trace, and a refusal changes nothing',
    async (_name, target) => {
      const path = target.route.path.replace('{id}', String(target.id()));
      await fc.assert(
        fc.asyncProperty(hostileBody(target.route.request as never, { ApiKey: admin }), async (body) => {
          const before = await target.snapshot();
          const result = await call(stack.url, path, undefined, { raw: bodyText(body) });
          expectWellFormed(result);
          if (result.status !== 200) expect(await target.snapshot()).toEqual(before);
        }),
        { numRuns: 30 },
      );
    },
    120_000,
  );
});
