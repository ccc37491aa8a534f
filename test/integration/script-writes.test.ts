import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSettings } from '../../lib/config/settings';
import { logger } from '../../lib/log';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// items.Create/Update/Upsert/Delete/BulkDelete and the apiModel's methods from server scripts (CONTRACT
// 13, reference/pleasanter-script-objects.md 1–2): as the script's user, false or 0 on a business failure.

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let writer: TestUser;
/** Reads the target tables; writes nothing there. */
let reader: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const read = async (id: number) => {
  const got = await post(`/api/items/${id}/get`, { ApiKey: admin });
  return (got.body.Response as { Data: Record<string, unknown>[] } | undefined)?.Data;
};
const titles = async (siteId: number) => ((await read(siteId)) ?? []).map((row) => row.Title).sort();
const target = (extra: object = {}) =>
  createSite(stack.url, admin, 0, {
    Title: 'target',
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},15`, `User,${reader.userId},1`],
    ...extra,
  });

/** What the scripts of `siteId` logged with context.Log, each line parsed as JSON. */
const logsOf = (siteId: number) =>
  vi
    .mocked(logger.info)
    .mock.calls.filter(
      ([message, extra]) =>
        message === 'server script log' && (extra as { siteId: number }).siteId === siteId,
    )
    .map(([, extra]) => JSON.parse((extra as { message: string }).message));

/**
 * Runs `body` as `condition` of a fresh site's script, on a create there by `user`; `out(value)` in the
 * script logs its results. Answers the create's StatusCode, the logged values and the driver's site id.
 */
async function run(user: TestUser, body: string, condition = 'AfterCreate', extra: object = {}) {
  const driver = await createSite(stack.url, admin, 0, {
    Title: 'driver',
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},15`, `User,${reader.userId},15`],
    SiteSettings: {
      ServerScripts: [
        {
          Name: 'under test',
          Body: `const out = (v) => context.Log(JSON.stringify(v));\n${body}`,
          [condition]: true,
        },
      ],
    },
  });
  const created = await post(`/api/items/${driver}/create`, {
    ApiKey: user.apiKey,
    Title: 'driver',
    ...extra,
  });
  return { status: created.body.StatusCode, logs: logsOf(driver), driver, id: Number(created.body.Id) };
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
});
beforeEach(() => {
  useSettings(undefined);
  vi.restoreAllMocks();
  vi.spyOn(logger, 'info');
  vi.spyOn(logger, 'warn');
});
afterAll(() => stack.close());

describe('items writes from server scripts', () => {
  describe('each method, as a user who may and one who may not', () => {
    const may = 'a user who may';
    const mayNot = 'a user who may not';
    it.each([
      ['Create', may, `items.Create(T, JSON.stringify({ Title: 'made' }))`, true, ['made', 'r1', 'r2']],
      ['Create', mayNot, `items.Create(T, JSON.stringify({ Title: 'made' }))`, false, ['r1', 'r2']],
      ['Update', may, `items.Update(R1, JSON.stringify({ Title: 'renamed' }))`, true, ['r2', 'renamed']],
      ['Update', mayNot, `items.Update(R1, JSON.stringify({ Title: 'renamed' }))`, false, ['r1', 'r2']],
      [
        'Upsert',
        may,
        `items.Upsert(T, JSON.stringify({ Keys: ['ClassA'], Title: 'upserted', ClassHash: { ClassA: 'a1' } }))`,
        true,
        ['r2', 'upserted'],
      ],
      [
        'Upsert',
        mayNot,
        `items.Upsert(T, JSON.stringify({ Keys: ['ClassA'], Title: 'upserted', ClassHash: { ClassA: 'a1' } }))`,
        false,
        ['r1', 'r2'],
      ],
      ['Delete', may, 'items.Delete(R1)', true, ['r2']],
      ['Delete', mayNot, 'items.Delete(R1)', false, ['r1', 'r2']],
      ['BulkDelete', may, 'items.BulkDelete(T, JSON.stringify({ Selected: [R1, R2] }))', 2, []],
      ['BulkDelete', mayNot, 'items.BulkDelete(T, JSON.stringify({ Selected: [R1, R2] }))', 0, ['r1', 'r2']],
    ])('%s as %s', async (_method, who, call, answer, left) => {
      const T = await target();
      const R1 = await createRecord(stack.url, admin, T, { Title: 'r1', ClassHash: { ClassA: 'a1' } });
      const R2 = await createRecord(stack.url, admin, T, { Title: 'r2' });
      const { status, logs } = await run(
        who === may ? writer : reader,
        `const T = ${T}, R1 = ${R1}, R2 = ${R2}; out(${call});`,
      );
      expect(status).toBe(200);
      expect(logs).toEqual([answer]);
      expect(await titles(T)).toEqual(left);
    });

    it('logs why a write was refused, naming the script', async () => {
      const T = await target();
      const { driver } = await run(reader, `out(items.Create(${T}, JSON.stringify({ Title: 'x' })));`);
      expect(logger.warn).toHaveBeenCalledWith(
        'a server script write was refused',
        expect.objectContaining({ siteId: driver, call: 'items.Create', status: 403 }),
      );
    });

    it('writes as the user of an ApiKey in the JSON, as the reference authenticates it', async () => {
      const T = await target();
      const body = JSON.stringify({ ApiKey: writer.apiKey, Title: 'by key' });
      const { logs } = await run(reader, `out(items.Create(${T}, ${JSON.stringify(body)}));`);
      expect(logs).toEqual([true]);
      const [made] = (await read(T)) ?? [];
      expect(made?.Creator).toBe(writer.userId);
    });

    it.each([
      ['an unknown key', '0'.repeat(128)],
      ["another tenant's key", () => accounts.other.apiKey],
    ])('refuses the ApiKey of %s', async (_case, key) => {
      const T = await target();
      const body = JSON.stringify({ ApiKey: typeof key === 'string' ? key : key(), Title: 'by key' });
      const { logs } = await run(writer, `out(items.Create(${T}, ${JSON.stringify(body)}));`);
      expect(logs).toEqual([false]);
      expect(await titles(T)).toEqual([]);
    });
  });

  describe('what a model may be', () => {
    it.each([
      [
        'an apiModel from NewResult, taking the saved values back',
        `const m = items.NewResult(); m.Title = 'model'; m.ClassA = 'x'; m.NumA = 12;
         out([items.Create(T, m), m.ResultId > T, m.Title, m.Status, m.Manager === context.UserId]);`,
        [true, true, 'model', 100, true],
        ['model'],
      ],
      [
        "the apiModel's own Create",
        `const m = items.NewResult(); m.Title = 'own'; out([m.Create(T), typeof m.ResultId]);`,
        [true, 'number'],
        ['own'],
      ],
      [
        'a JSON string, without an id to read back',
        `out(items.Create(T, JSON.stringify({ Title: 'json', ClassHash: { ClassA: 'y' } })));`,
        true,
        ['json'],
      ],
      [
        'a plain object, which the reference cannot read either',
        `out(items.Create(T, { Title: 'plain' }));`,
        false,
        [],
      ],
      ['JSON that does not parse', `out(items.Create(T, '{Title:'));`, false, []],
      [
        'JSON with a field of the wrong type',
        `out(items.Create(T, JSON.stringify({ Title: 'x', NumA: 'twelve' })));`,
        false,
        [],
      ],
      [
        'an apiModel for Upsert, which cannot carry Keys',
        `out(items.Upsert(T, items.NewResult()));`,
        false,
        [],
      ],
    ])('%s', async (_case, body, answer, left) => {
      const T = await target();
      const { logs } = await run(writer, `const T = ${T};\n${body}`);
      expect(logs).toEqual([answer]);
      expect(await titles(T)).toEqual(left);
    });

    it('writes every field of an apiModel from Get on Update, and only the given ones from JSON', async () => {
      const T = await target();
      const id = await createRecord(stack.url, admin, T, {
        Title: 'got',
        ClassHash: { ClassA: 'a', ClassB: 'b' },
      });
      const { logs } = await run(
        writer,
        `const [r] = items.Get(${id}); r.ClassA = 'changed';
         out([items.Update(${id}, JSON.stringify({ ClassHash: { ClassB: 'json' } })), r.Update()]);`,
      );
      expect(logs).toEqual([[true, true]]);
      const [row] = (await read(id)) ?? [];
      // The model, read before the JSON update, wrote its own ClassB back: every field of it is written.
      expect(row?.ClassHash).toEqual({ ClassA: 'changed', ClassB: 'b' });
    });

    it("deletes through the apiModel's own Delete", async () => {
      const T = await target();
      const id = await createRecord(stack.url, admin, T, { Title: 'doomed' });
      const { logs } = await run(writer, `out(items.Get(${id})[0].Delete());`);
      expect(logs).toEqual([true]);
      expect(await titles(T)).toEqual([]);
    });

    it('gives an Issue the defaults of a fresh table', async () => {
      const { logs } = await run(
        writer,
        `const m = items.NewIssue(); out([m.Status, m.Manager === context.UserId, typeof m.StartTime, m.IssueId]);`,
      );
      expect(logs).toEqual([[100, true, 'string', 0]]);
    });
  });

  describe('Upsert', () => {
    it.each([
      [
        'creates when no record matches',
        `{ Keys: ['ClassA'], Title: 'new', ClassHash: { ClassA: 'none' } }`,
        true,
        ['kept', 'new'],
      ],
      [
        'updates the one that matches',
        `{ Keys: ['ClassA'], Title: 'matched', ClassHash: { ClassA: 'k' } }`,
        true,
        ['matched'],
      ],
      // The API's key check refuses a key without a value (reference/pleasanter-items-api.md 6.2).
      [
        'refuses a null key',
        `{ Keys: ['ClassA'], Title: 'null', ClassHash: { ClassA: null } }`,
        false,
        ['kept'],
      ],
      ['refuses an upsert without Keys', `{ Title: 'keyless' }`, false, ['kept']],
    ])('%s', async (_case, json, answer, left) => {
      const T = await target();
      await createRecord(stack.url, admin, T, { Title: 'kept', ClassHash: { ClassA: 'k' } });
      const { logs } = await run(writer, `out(items.Upsert(${T}, JSON.stringify(${json})));`);
      expect(logs).toEqual([answer]);
      expect(await titles(T)).toEqual(left);
    });
  });

  describe('BulkDelete', () => {
    it.each([
      ['Selected', (a: number) => `{ Selected: [${a}] }`, 1, ['b', 'c']],
      ['All but Selected', (a: number) => `{ All: true, Selected: [${a}] }`, 2, ['a']],
      ['a View', () => `{ View: { ColumnFilterHash: { ClassA: 'two' } } }`, 1, ['a', 'c']],
      ['nothing that says which (refused)', () => '{}', 0, ['a', 'b', 'c']],
      ['no JSON at all (refused)', () => undefined, 0, ['a', 'b', 'c']],
    ])('with %s', async (_case, json, answer, left) => {
      const T = await target();
      const a = await createRecord(stack.url, admin, T, { Title: 'a', ClassHash: { ClassA: 'one' } });
      await createRecord(stack.url, admin, T, { Title: 'b', ClassHash: { ClassA: 'two' } });
      await createRecord(stack.url, admin, T, { Title: 'c', ClassHash: { ClassA: 'three' } });
      const given = json(a);
      const argument = given === undefined ? '' : `, JSON.stringify(${given})`;
      const { logs } = await run(writer, `out(items.BulkDelete(${T}${argument}));`);
      expect(logs).toEqual([answer]);
      expect(await titles(T)).toEqual(left);
    });
  });

  describe('sites', () => {
    it('creates a site under a folder from NewSite, updates and deletes it by its id', async () => {
      const folder = await createSite(stack.url, admin, 0, {
        Title: 'folder',
        Permissions: [`User,${writer.userId},511`],
      });
      const { logs } = await run(
        writer,
        `const s = items.NewSite('Results'); s.Title = 'made by a script';
         const made = items.Create(${folder}, s);
         const renamed = items.Update(s.SiteId, JSON.stringify({ Title: 'renamed' }));
         const title = items.GetSite(s.SiteId)[0].Title;
         out([made, s.SiteId > ${folder}, s.ReferenceType, renamed, title, items.Delete(s.SiteId), items.GetSite(s.SiteId)]);`,
      );
      expect(logs).toEqual([[true, true, 'Results', true, 'renamed', true, []]]);
    });

    it('refuses site writes to a user without ManageSite', async () => {
      const folder = await createSite(stack.url, admin, 0, {
        Title: 'folder',
        Permissions: [`User,${reader.userId},1`],
      });
      const { logs } = await run(
        reader,
        `const s = items.NewSite('Results'); s.Title = 'x';
         out([items.Create(${folder}, s), items.Update(${folder}, JSON.stringify({ Title: 'y' })), items.Delete(${folder})]);`,
      );
      expect(logs).toEqual([[false, false, false]]);
    });
  });

  describe('tenant isolation', () => {
    it("answers false for another tenant's site and record ids", async () => {
      const theirs = await createSite(stack.url, accounts.other.apiKey, 0, { ReferenceType: 'Results' });
      const record = await createRecord(stack.url, accounts.other.apiKey, theirs, { Title: 'theirs' });
      const { logs } = await run(
        accounts.admin,
        `out([items.Create(${theirs}, JSON.stringify({ Title: 'x' })),
              items.Update(${record}, JSON.stringify({ Title: 'x' })), items.Delete(${record}),
              items.BulkDelete(${theirs}, JSON.stringify({ All: true }))]);`,
      );
      expect(logs).toEqual([[false, false, false, 0]]);
      const left = await post(`/api/items/${theirs}/get`, { ApiKey: accounts.other.apiKey });
      expect((left.body.Response as { Data: { Title: string }[] }).Data.map((row) => row.Title)).toEqual([
        'theirs',
      ]);
    });
  });
});
