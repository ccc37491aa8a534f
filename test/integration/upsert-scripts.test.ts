import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// upsert and bulkupsert run the site's scripts of the path they take, as create and update do
// (issue 23 item 4; CONTRACT sections 5.1, 8).

let stack: Stack;
let admin: string;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
interface Row {
  ResultId: number;
  Title: string;
  Ver: number;
  ClassHash?: Record<string, string>;
  NumHash?: Record<string, number>;
}
const rows = async (siteId: number) => {
  const result = await post(`/api/items/${siteId}/get`, {
    ApiKey: admin,
    View: { ColumnSorterHash: { ResultId: 'asc' } },
  });
  return (result.body.Response as { Data: Row[] }).Data;
};
/** A table whose scripts refuse 'VIP' in ClassA or ClassC on create and update, and stamp each. */
const guarded = async () => {
  const site = await createSite(stack.url, admin, 0, {
    Title: 'Guarded',
    ReferenceType: 'Results',
    SiteSettings: {
      ServerScripts: [
        {
          Name: 'no VIP',
          Body: "if (model.ClassA === 'VIP' || model.ClassC === 'VIP') context.Error('VIP refused');",
          BeforeCreate: true,
          BeforeUpdate: true,
        },
        {
          Name: 'stamp create',
          Body: "model.NumA = 1; model.ClassB = model.ClassA + '!';",
          BeforeCreate: true,
        },
        { Name: 'stamp update', Body: 'model.NumA = model.NumA + 10;', BeforeUpdate: true },
      ],
    },
  });
  await createRecord(stack.url, admin, site, { Title: 'A', ClassHash: { ClassA: 'a1' } });
  return site;
};
const upsert = (site: number, body: object) =>
  post(`/api/items/${site}/upsert`, { ApiKey: admin, Keys: ['ClassA'], ...body });

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
beforeEach(() =>
  useSettings({
    ...loadSettings(),
    Script: { ...loadSettings().Script, ServerScript: true, ServerScriptTimeOut: 10_000 },
  }),
);
afterAll(() => stack.close());

// The first request loads the script engine: on a loaded two-core machine that alone may take 20 s.
describe('upsert runs the scripts of the path it takes', { timeout: 120_000 }, () => {
  it.each([
    ['the create path (BeforeCreate)', { ClassA: 'VIP' }],
    ['the update path (BeforeUpdate)', { ClassA: 'a1', ClassC: 'VIP' }],
  ])('a script refusing %s answers 400 with nothing written', async (_path, classes) => {
    const site = await guarded();
    const before = await rows(site);
    const result = await upsert(site, { Title: 'Z', ClassHash: classes });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ StatusCode: 400, Message: 'VIP refused' });
    expect(await rows(site)).toEqual(before);
  });

  it('saves what a Before script writes into the model, on either path', async () => {
    const site = await guarded();
    const created = await upsert(site, { Title: 'N', ClassHash: { ClassA: 'n1' } });
    expect(created.body).toMatchObject({ StatusCode: 200, Message: '" N " has been created.' });
    const updated = await upsert(site, { Title: 'N2', ClassHash: { ClassA: 'n1' } });
    expect(updated.body).toMatchObject({ Id: created.body.Id, Message: '" N2 " has been updated.' });
    const [, n] = await rows(site);
    // Created with NumA 1 and ClassB 'n1!', then updated: NumA 1 + 10.
    expect(n).toMatchObject({
      Title: 'N2',
      // Same user, same day: no new version (AutoVerUpType Default).
      Ver: 1,
      ClassHash: { ClassA: 'n1', ClassB: 'n1!' },
      NumHash: { NumA: 11 },
    });
  });
});

describe("bulkupsert runs every item's Before script before writing any", { timeout: 120_000 }, () => {
  it.each([
    ['an item it would create', { Title: 'V', ClassHash: { ClassA: 'VIP' } }],
    ['an item it would update', { Title: 'A3', ClassHash: { ClassA: 'a1', ClassC: 'VIP' } }],
  ])('a script refusing %s refuses the request, nothing written', async (_case, bad) => {
    const site = await guarded();
    const before = await rows(site);
    const result = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Data: [{ Title: 'A2', ClassHash: { ClassA: 'a1' } }, { Title: 'N', ClassHash: { ClassA: 'n1' } }, bad],
    });
    expect(result.body).toMatchObject({ StatusCode: 400, Message: 'VIP refused' });
    expect(await rows(site)).toEqual(before);
  });

  it('saves what the Before scripts write, item by item', async () => {
    const site = await guarded();
    const result = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Data: [
        { Title: 'A2', ClassHash: { ClassA: 'a1' } },
        { Title: 'N', ClassHash: { ClassA: 'n1' } },
        // Matches the record the item before it created, as that item's script left it.
        { Title: 'N2', ClassHash: { ClassA: 'n1' } },
      ],
    });
    expect(result.body).toMatchObject({
      StatusCode: 200,
      Message: 'Guarded: 1 entries have been added and 2 entries updated.',
    });
    const [a, n] = await rows(site);
    // A was created through create, whose BeforeCreate stamped NumA 1.
    expect(a).toMatchObject({ Title: 'A2', NumHash: { NumA: 11 } });
    expect(n).toMatchObject({
      Title: 'N2',
      ClassHash: { ClassA: 'n1', ClassB: 'n1!' },
      NumHash: { NumA: 11 },
    });
  });
});
