import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalOf } from '../../lib/accounts/authentication';
import { getUser } from '../../lib/accounts/repository';
import { readableRecords } from '../../lib/items/record-permissions';
import { sitesOfTenant } from '../../lib/sites/repository';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// Record-level permissions (CONTRACT 5.1): a record's own rows widen what a caller may do with it.

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** Nothing on the sites below: reaches a record only by its rows. */
let outsider: TestUser;
/** Read and Update (5) on the sites below. */
let writer: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const status = async (path: string, body: object) => (await post(path, body)).body.StatusCode;
const grant = (recordId: number, rows: string[], key = admin) =>
  post(`/api/items/${recordId}/update`, { ApiKey: key, RecordPermissions: rows });

interface Page {
  TotalCount: number;
  Data: { ResultId: number; Title: string }[];
}
const list = async (siteId: number, key: string, body: object = {}) => {
  const result = await post(`/api/items/${siteId}/get`, { ApiKey: key, ...body });
  return { status: result.body.StatusCode, page: result.body.Response as Page };
};

/** A table the outsider has no permission on, with records A, B (Status 100) and C (Status 200). */
async function table(): Promise<{ site: number; a: number; b: number; c: number }> {
  const site = await createSite(stack.url, admin, 0, {
    Title: 'Private',
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},5`],
  });
  const a = await createRecord(stack.url, admin, site, { Title: 'A', Status: 100 });
  const b = await createRecord(stack.url, admin, site, { Title: 'B', Status: 100 });
  const c = await createRecord(stack.url, admin, site, { Title: 'C', Status: 200 });
  return { site, a, b, c };
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  outsider = await createUser(stack.url, admin, `outsider-${Date.now()}`);
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
});
afterAll(() => stack.close());

describe('record permissions: reads', () => {
  it('a user without site Read who has Read on one record sees only that record, alone and in lists', async () => {
    const { site, a, b } = await table();
    expect(await status(`/api/items/${a}/get`, { ApiKey: outsider.apiKey })).toBe(404);
    expect((await list(site, outsider.apiKey)).status).toBe(404);

    expect((await grant(a, [`User,${outsider.userId},1`])).body.StatusCode).toBe(200);
    const one = await post(`/api/items/${a}/get`, { ApiKey: outsider.apiKey });
    expect((one.body.Response as Page).Data.map((row) => row.Title)).toEqual(['A']);
    expect(await status(`/api/items/${b}/get`, { ApiKey: outsider.apiKey })).toBe(404);
    const { page } = await list(site, outsider.apiKey);
    expect([page.TotalCount, page.Data.map((row) => row.Title)]).toEqual([1, ['A']]);
    // The rows are not answered, as in the reference.
    expect(JSON.stringify(one.body)).not.toContain('RecordPermissions');
  });

  it('lists apply the View, paging and TotalCount to the granted records', async () => {
    const { site, a, c } = await table();
    await grant(a, [`User,${outsider.userId},1`]);
    await grant(c, [`User,-1,1`]);
    const paged = (
      await list(site, outsider.apiKey, { PageSize: 1, View: { ColumnSorterHash: { Title: 'asc' } } })
    ).page;
    expect([paged.TotalCount, paged.Data.map((row) => row.Title)]).toEqual([2, ['A']]);
    const filtered = (await list(site, outsider.apiKey, { View: { ColumnFilterHash: { Status: '[200]' } } }))
      .page;
    expect([filtered.TotalCount, filtered.Data.map((row) => row.Title)]).toEqual([1, ['C']]);
    const keyValues = await post(`/api/items/${site}/get`, {
      ApiKey: outsider.apiKey,
      View: { ApiDataType: 'KeyValues', GridColumns: ['Title'], ColumnSorterHash: { Title: 'asc' } },
    });
    // Keyed by the Title's label in the caller's language (ja by default: Service.DefaultLanguage).
    expect((keyValues.body.Response as { Data: unknown[] }).Data).toEqual([
      { タイトル: 'A' },
      { タイトル: 'C' },
    ]);
  });

  it('a group or dept row lets its members read', async () => {
    const { site, b } = await table();
    const group = await post('/api/groups/create', {
      ApiKey: admin,
      GroupName: `rows-${Date.now()}`,
      Members: [`User,${outsider.userId}`],
    });
    await grant(b, [`Group,${group.body.Id},1`]);
    expect((await list(site, outsider.apiKey)).page.Data.map((row) => row.Title)).toEqual(['B']);
  });

  it('an update replaces every row; no rows take the access back', async () => {
    const { site, a } = await table();
    await grant(a, [`User,${outsider.userId},1`]);
    expect(await status(`/api/items/${a}/get`, { ApiKey: outsider.apiKey })).toBe(200);
    await grant(a, []);
    expect(await status(`/api/items/${a}/get`, { ApiKey: outsider.apiKey })).toBe(404);
    expect((await list(site, outsider.apiKey)).status).toBe(404);
  });

  it('a deleted record leaves no access behind in lists', async () => {
    const { site, a, b } = await table();
    await grant(a, [`User,${outsider.userId},1`]);
    await grant(b, [`User,${outsider.userId},1`]);
    expect(await status(`/api/items/${a}/delete`, { ApiKey: admin })).toBe(200);
    const { page } = await list(site, outsider.apiKey);
    expect([page.TotalCount, page.Data.map((row) => row.Title)]).toEqual([1, ['B']]);
  });

  it('a record attachment is readable by a record reader, and by no one else', async () => {
    const { site } = await table();
    const id = await createRecord(stack.url, admin, site, {
      Title: 'Files',
      AttachmentsHash: { AttachmentsA: [{ Name: 'a.txt', Base64: Buffer.from('hello').toString('base64') }] },
    });
    const got = await post(`/api/items/${id}/get`, { ApiKey: admin });
    const row = (got.body.Response as { Data: { AttachmentsHash: { AttachmentsA: { Guid: string }[] } }[] })
      .Data[0];
    const guid = row?.AttachmentsHash.AttachmentsA[0]?.Guid;
    expect(await status(`/api/binaries/${guid}/get`, { ApiKey: outsider.apiKey })).toBe(404);
    await grant(id, [`User,${outsider.userId},1`]);
    const file = await post(`/api/binaries/${guid}/get`, { ApiKey: outsider.apiKey });
    expect((file.body.Response as { Base64: string }).Base64).toBe(Buffer.from('hello').toString('base64'));
  });
});

describe('server scripts', () => {
  it("items.Get reads a record by its own rows, and a table's granted records only", async () => {
    const { site, a, b } = await table();
    await grant(a, [`User,${outsider.userId},1`]);
    const origin = await createSite(stack.url, admin, 0, {
      ReferenceType: 'Results',
      Permissions: [`User,${outsider.userId},15`],
      SiteSettings: {
        ServerScripts: [
          {
            Body: `const got = (id) => { const found = items.Get(id); return found ? found.map((r) => r.Title) : null; };
                   model.DescriptionA = JSON.stringify([got(${a}), got(${b}), got(${site})]);`,
            BeforeUpdate: true,
          },
        ],
      },
    });
    const id = await createRecord(stack.url, outsider.apiKey, origin);
    expect(await status(`/api/items/${id}/update`, { ApiKey: outsider.apiKey, Title: 'run' })).toBe(200);
    const row = await post(`/api/items/${id}/get`, { ApiKey: outsider.apiKey });
    const shown = (row.body.Response as { Data: { DescriptionHash: { DescriptionA: string } }[] }).Data[0];
    expect(JSON.parse(String(shown?.DescriptionHash.DescriptionA))).toEqual([['A'], [], ['A']]);
  });
});

describe('readableRecords, for callers that hold ids (search)', () => {
  const scopeOf = async (user: TestUser) => {
    const found = await getUser(user.userId);
    if (!found) throw new Error('no such user');
    return readableRecords(principalOf(found, 'apiKey'), await sitesOfTenant(1));
  };

  it('reads whole sites by site Read, and elsewhere only the records whose rows give Read', async () => {
    const { site, a, b } = await table();
    await grant(a, [`User,${outsider.userId},1`]);
    await grant(b, [`User,${outsider.userId},4`]);
    const outside = await scopeOf(outsider);
    expect([outside.canRead(site, a), outside.canRead(site, b), outside.canRead(site, site)]).toEqual([
      true,
      false,
      false,
    ]);
    const inside = await scopeOf(writer);
    expect([inside.canRead(site, a), inside.canRead(site, b), inside.canRead(site, site)]).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe('record permissions: writes', () => {
  it('Update and Delete on one record let a user change and delete it, and no other', async () => {
    const { a, b } = await table();
    await grant(a, [`User,${outsider.userId},13`]);
    expect(await status(`/api/items/${a}/update`, { ApiKey: outsider.apiKey, Title: 'A2' })).toBe(200);
    expect(await status(`/api/items/${b}/update`, { ApiKey: outsider.apiKey, Title: 'B2' })).toBe(403);
    expect(await status(`/api/items/${b}/delete`, { ApiKey: outsider.apiKey })).toBe(403);
    expect(await status(`/api/items/${a}/delete`, { ApiKey: outsider.apiKey })).toBe(200);
  });

  it('rows widen and never narrow: Read-only rows leave a site writer writing', async () => {
    const { a } = await table();
    await grant(a, [`User,${writer.userId},1`]);
    expect(await status(`/api/items/${a}/update`, { ApiKey: writer.apiKey, Title: 'still' })).toBe(200);
    // Read-only rows give no Update to someone who has only them.
    await grant(a, [`User,${outsider.userId},1`]);
    expect(await status(`/api/items/${a}/update`, { ApiKey: outsider.apiKey, Title: 'no' })).toBe(403);
    expect(await status(`/api/items/${a}/delete`, { ApiKey: writer.apiKey })).toBe(403);
  });

  it('bulkdelete without site Delete deletes only the records whose rows give Delete', async () => {
    const { site, a, b, c } = await table();
    await grant(a, [`User,${outsider.userId},9`]);
    await grant(b, [`User,${outsider.userId},1`]);
    const result = await post(`/api/items/${site}/bulkdelete`, {
      ApiKey: outsider.apiKey,
      Selected: [a, b, c],
    });
    expect(result.body.StatusCode).toBe(200);
    expect(result.body.Message).toContain('1');
    const { page } = await list(site, admin, { View: { ColumnSorterHash: { Title: 'asc' } } });
    expect(page.Data.map((row) => row.Title)).toEqual(['B', 'C']);
    expect(await status(`/api/items/${site}/bulkdelete`, { ApiKey: writer.apiKey, All: true })).toBe(403);
  });

  it('upsert and bulkupsert update a record whose rows give Update, and create nothing without Create', async () => {
    const { site, a } = await table();
    await post(`/api/items/${a}/update`, { ApiKey: admin, ClassHash: { ClassA: 'key-a' } });
    expect(
      await status(`/api/items/${site}/upsert`, {
        ApiKey: outsider.apiKey,
        Keys: ['ClassA'],
        ClassHash: { ClassA: 'key-a' },
        Title: 'by upsert',
      }),
    ).toBe(403);
    await grant(a, [`User,${outsider.userId},5`]);
    const upsert = await post(`/api/items/${site}/upsert`, {
      ApiKey: outsider.apiKey,
      Keys: ['ClassA'],
      ClassHash: { ClassA: 'key-a' },
      Title: 'by upsert',
    });
    expect(upsert.body).toMatchObject({ Id: a, StatusCode: 200 });
    const bulk = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: outsider.apiKey,
      Keys: ['ClassA'],
      Data: [
        { ClassHash: { ClassA: 'key-a' }, Title: 'by bulkupsert' },
        { ClassHash: { ClassA: 'new' }, Title: 'new one' },
      ],
    });
    expect(bulk.body.StatusCode).toBe(403);
    const { page } = await list(site, admin);
    expect(page.Data.map((row) => row.Title).sort()).toEqual(['B', 'C', 'by upsert']);
    const update = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: outsider.apiKey,
      Keys: ['ClassA'],
      Data: [{ ClassHash: { ClassA: 'key-a' }, Title: 'by bulkupsert' }],
    });
    expect(update.body.StatusCode).toBe(200);
  });

  it("setting rows needs ManagePermission, on the site or by the record's own rows", async () => {
    const { a } = await table();
    expect((await grant(a, [`User,${outsider.userId},1`], writer.apiKey)).body.StatusCode).toBe(403);
    await grant(a, [`User,${writer.userId},256`]);
    expect((await grant(a, [`User,${outsider.userId},1`], writer.apiKey)).body.StatusCode).toBe(200);
    expect(await status(`/api/items/${a}/get`, { ApiKey: outsider.apiKey })).toBe(200);
  });

  it('rows sent on create are ignored, as in the reference', async () => {
    const { site } = await table();
    const id = await createRecord(stack.url, admin, site, {
      RecordPermissions: [`User,${outsider.userId},1`],
    });
    expect(await status(`/api/items/${id}/get`, { ApiKey: outsider.apiKey })).toBe(404);
  });
});

describe('record permissions: bad rows and tenants', () => {
  it.each([
    ['not a row', ['User,abc,1']],
    ['an unknown kind', ['Robot,2,1']],
    ['bits over 511', ['User,2,999']],
    ['a group named -1', ['Group,-1,1']],
    ['not a list', 'User,2,1'],
    ['a number', [5]],
  ])('%s is a 400 naming RecordPermissions, and changes nothing', async (_, rows) => {
    const { a } = await table();
    await grant(a, [`User,${outsider.userId},1`]);
    const result = await post(`/api/items/${a}/update`, {
      ApiKey: admin,
      Title: 'changed',
      RecordPermissions: rows,
    });
    expect(result.body.StatusCode).toBe(400);
    expect(JSON.stringify(result.body)).toContain('RecordPermissions');
    const still = await post(`/api/items/${a}/get`, { ApiKey: outsider.apiKey });
    expect((still.body.Response as Page).Data.map((row) => row.Title)).toEqual(['A']);
  });

  it("a row naming another tenant's user is a 400 naming RecordPermissions", async () => {
    const { a } = await table();
    const result = await grant(a, [`User,${accounts.other.userId},1`]);
    expect(result.body.StatusCode).toBe(400);
    expect(JSON.stringify(result.body)).toContain('RecordPermissions');
  });

  it('a row for every user (User,-1) reaches no other tenant', async () => {
    const { site, a } = await table();
    await grant(a, ['User,-1,15']);
    expect(await status(`/api/items/${a}/get`, { ApiKey: outsider.apiKey })).toBe(200);
    const other = accounts.other.apiKey;
    expect(await status(`/api/items/${a}/get`, { ApiKey: other })).toBe(404);
    expect(await status(`/api/items/${site}/get`, { ApiKey: other })).toBe(404);
    expect(await status(`/api/items/${a}/update`, { ApiKey: other, Title: 'x' })).toBe(404);
    expect(await status(`/api/items/${a}/delete`, { ApiKey: other })).toBe(404);
    expect(await status(`/api/items/${site}/bulkdelete`, { ApiKey: other, All: true })).toBe(404);
  });
});
