import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// Writes that follow the save (CONTRACT 13's departure): a Before condition's items writes are applied
// only with the save they precede; and nested writes run the target's scripts to depth 10, no further.

let stack: Stack;
let admin: string;
let writer: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const rows = async (id: number) => {
  const got = await post(`/api/items/${id}/get`, { ApiKey: admin });
  return (got.body.Response as { Data: Record<string, unknown>[] } | undefined)?.Data ?? [];
};
const titles = async (siteId: number) => (await rows(siteId)).map((row) => String(row.Title)).sort();
const table = (extra: object = {}) =>
  createSite(stack.url, admin, 0, {
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},15`],
    ...extra,
  });
const settings = (ServerScripts: object[]) => ({
  ServerScripts,
  Columns: [{ ColumnName: 'ClassA', NoDuplication: true }],
});
const scripted = (ServerScripts: object[]) => table({ SiteSettings: settings(ServerScripts) });

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
});
afterAll(() => stack.close());
afterEach(() => useSettings(undefined));

describe('a Before condition’s writes', () => {
  /**
   * What the BeforeCreate script writes into T: a JSON create, an apiModel's create, an update and a
   * delete of `victim`, a bulk delete of `bulk`, an upsert that matches `keyed`.
   */
  const writes = (T: number, victim: number, bulk: number) => `
    const json = items.Create(${T}, JSON.stringify({ Title: 'json ' + model.Title }));
    const m = items.NewResult(); m.Title = 'model ' + model.Title; m.Create(${T});
    const updated = items.Update(${victim}, JSON.stringify({ Title: 'updated' }));
    const deleted = items.Delete(${victim});
    const bulk = items.BulkDelete(${T}, JSON.stringify({ Selected: [${bulk}] }));
    const upserted = items.Upsert(${T}, JSON.stringify({ Keys: ['ClassA'], Title: 'upserted', ClassHash: { ClassA: 'k' } }));
    model.NumA = m.ResultId;
    // Not there yet: the write waits for this save.
    model.DescriptionA = JSON.stringify([json, updated, deleted, bulk, upserted, (items.Get(m.ResultId) || []).length]);
    if (model.Title === 'refuse') context.Error('refused by the script');`;

  it.each([
    ['are applied with a save that succeeds', 'saved', 'u1', 200],
    ['are dropped with a save refused by context.Error', 'refuse', 'u2', 400],
    ['are dropped with a save that fails in storage (a NoDuplication conflict)', 'dup', 'taken', 409],
  ])('%s', async (_case, title, classA, status) => {
    const T = await table();
    const victim = await createRecord(stack.url, admin, T, { Title: 'victim' });
    const bulk = await createRecord(stack.url, admin, T, { Title: 'bulk' });
    await createRecord(stack.url, admin, T, { Title: 'keyed', ClassHash: { ClassA: 'k' } });
    const site = await scripted([]);
    await createRecord(stack.url, admin, site, { Title: 'first', ClassHash: { ClassA: 'taken' } });
    const scripts = [{ Name: 'writes', Body: writes(T, victim, bulk), BeforeCreate: true }];
    await post(`/api/items/${site}/updatesite`, { ApiKey: admin, SiteSettings: settings(scripts) });
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: writer.apiKey,
      Title: title,
      ClassHash: { ClassA: classA },
    });
    expect(created.body.StatusCode).toBe(status);
    if (status !== 200) {
      expect(await titles(T)).toEqual(['bulk', 'keyed', 'victim']);
      return;
    }
    expect(await titles(T)).toEqual(['json saved', 'model saved', 'upserted']);
    const [saved] = await rows(Number(created.body.Id));
    const made = (await rows(T)).find((row) => row.Title === 'model saved');
    // The script had the id its create was going to have, and the answers it would have after the save.
    expect(saved?.NumHash).toEqual({ NumA: made?.ResultId });
    const answers = (saved?.DescriptionHash as Record<string, string> | undefined)?.DescriptionA;
    expect(JSON.parse(String(answers))).toEqual([true, true, true, 1, true, 0]);
  });

  it.each([
    ['with a save that succeeds', 'kept', 200],
    ['and no site with a save refused by context.Error', 'refuse', 400],
  ])('create a site under the id the script was given, %s', async (_case, title, status) => {
    const folder = await createSite(stack.url, admin, 0, { ReferenceType: 'Sites', Title: 'held sites' });
    const site = await scripted([
      {
        Body: `const s = items.NewSite('Results'); s.Title = 'site of ' + model.Title;
               model.NumA = s.Create(${folder}) ? s.SiteId : -1;
               if (model.Title === 'refuse') context.Error('refused by the script');`,
        BeforeCreate: true,
      },
    ]);
    const created = await post(`/api/items/${site}/create`, { ApiKey: admin, Title: title });
    expect(created.body.StatusCode, created.text).toBe(status);
    const children = await post(`/api/items/${folder}/childsites`, { ApiKey: admin });
    const shown = ((children.body.Response as { Data?: { SiteId: number; Title: string }[] }).Data ?? []).map(
      (child) => [child.SiteId, child.Title],
    );
    if (status !== 200) {
      expect(shown).toEqual([]);
      return;
    }
    const [saved] = await rows(Number(created.body.Id));
    const reserved = (saved?.NumHash as Record<string, number> | undefined)?.NumA;
    expect(reserved).toBeGreaterThan(0);
    expect(shown).toEqual([[reserved, 'site of kept']]);
  });

  it('keep the save when one fails as it is applied, and show the failure in the script errors', async () => {
    const T = await scripted([]);
    const site = await scripted([
      {
        Name: 'twice',
        Body: `const row = (title) => JSON.stringify({ Title: title, ClassHash: { ClassA: 'same' } });
               model.DescriptionA = JSON.stringify([items.Create(${T}, row('first')), items.Create(${T}, row('second'))]);`,
        BeforeCreate: true,
      },
    ]);
    const id = await createRecord(stack.url, admin, site, { Title: 'saved' });
    const [saved] = await rows(id);
    // Both were checked and answered at once; the second's NoDuplication conflict shows only when applied.
    expect((saved?.DescriptionHash as Record<string, string> | undefined)?.DescriptionA).toBe('[true,true]');
    expect(await titles(T)).toEqual(['first']);
    const errors = await post(`/api/items/${site}/scripterrors/get`, { ApiKey: admin });
    expect(errors.body.StatusCode, errors.text).toBe(200);
    expect((errors.body.Response as { Errors: unknown[] }).Errors).toEqual([
      expect.objectContaining({
        Condition: 'BeforeCreate',
        Script: 'twice',
        Reason: expect.stringContaining('a write held for the save failed when applied'),
      }),
    ]);
  });

  it('answers false at once for what can be checked before the save', async () => {
    const T = await table({ Permissions: [] });
    const site = await scripted([
      {
        Body: `model.DescriptionA = JSON.stringify([items.Create(${T}, JSON.stringify({ Title: 'x' })),
                 items.Create(${T}, '{not json'), items.Delete(999999999), items.BulkDelete(${T}, '{}')]);`,
        BeforeCreate: true,
      },
    ]);
    const id = await createRecord(stack.url, writer.apiKey, site, { Title: 'r' });
    const [saved] = await rows(id);
    expect((saved?.DescriptionHash as Record<string, string> | undefined)?.DescriptionA).toBe(
      '[false,false,false,0]',
    );
    expect(await titles(T)).toEqual([]);
  });
});

describe('nested writes', () => {
  it('run the target’s scripts to depth 10, then write without them', async () => {
    // Eleven tables in a ring: each one's AfterCreate creates a record in the next, the last in the first.
    const ring: number[] = [];
    for (let index = 0; index < 11; index += 1) ring.push(await table({ Title: `ring ${index}` }));
    for (const [index, siteId] of ring.entries()) {
      const next = ring[(index + 1) % ring.length];
      const updated = await post(`/api/items/${siteId}/updatesite`, {
        ApiKey: admin,
        SiteSettings: {
          ServerScripts: [
            {
              Name: `ring ${index}`,
              Body: `items.Create(${next}, JSON.stringify({ Title: 'depth ' + context.ServerScript.ScriptDepth }));`,
              AfterCreate: true,
            },
          ],
        },
      });
      expect(updated.body.StatusCode).toBe(200);
    }
    // Each level waits for a script worker of its own to start, which a loaded machine (the test run's)
    // makes slow: the time limit is the bench's to measure (bench/script-writes.ts), the depth is this test's.
    useSettings(loadSettings({ KIROKU_PARAM_Script_ServerScriptTimeOut: '120000' }));
    const created = await post(`/api/items/${ring[0]}/create`, { ApiKey: writer.apiKey, Title: 'start' });
    expect(created.body.StatusCode).toBe(200);
    // The scripts of depths 0–9 each made one record; the one made at depth 10 ran no script.
    const made = await Promise.all(ring.map(titles));
    expect(made).toEqual([['start'], ...Array.from({ length: 10 }, (_, depth) => [`depth ${depth}`])]);
  }, 120_000);
});
