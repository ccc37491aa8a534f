import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTenant } from '../../lib/accounts/repository';
import { createUser, logIn, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// What a condition's scripts see of model, saved, context and siteSettings on an API call, and what their
// writes to model become (CONTRACT 13, reference/pleasanter-script-objects.md 3, 4, 5).

let stack: Stack;
let admin: string;
let writer: TestUser;
let cookies: string[];
let groupId: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const record = async (id: number) => {
  const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
  return (read.body.Response as { Data: Record<string, unknown>[] } | undefined)?.Data[0];
};
const withScripts = (ServerScripts: object[], more: object = {}) =>
  createSite(stack.url, admin, 0, {
    Title: 'Model site',
    ReferenceType: 'Issues',
    Permissions: [`User,${writer.userId},15`],
    SiteSettings: { ServerScripts },
    ...more,
  });

/** A script that writes what `expression` gives, as JSON with Dates marked, into DescriptionA. */
const dumping = (expression: string) => `
  const shown = (value) => value instanceof Date ? 'Date:' + value.toISOString() : value;
  const dump = (object) => Object.fromEntries(Object.keys(object).map((key) => [key, shown(object[key])]));
  model.DescriptionA = JSON.stringify(${expression});`;
const dumped = async (id: number) =>
  JSON.parse(
    ((await record(id)) as { DescriptionHash: { DescriptionA: string } }).DescriptionHash.DescriptionA,
  );

beforeAll(async () => {
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `model-${Date.now()}`);
  cookies = await logIn(stack.url, writer.loginId);
  const group = await post('/api/groups/create', {
    ApiKey: admin,
    GroupName: 'Readers',
    Members: [`User,${writer.userId}`],
  });
  groupId = Number(group.body.Id);
});
afterAll(() => stack.close());

describe('server scripts: model, saved and context', () => {
  describe('on an update', () => {
    let siteId: number;
    let id: number;
    let seen: {
      model: Record<string, unknown>;
      saved: Record<string, unknown>;
      context: Record<string, unknown>;
    };
    beforeAll(async () => {
      const script = {
        BeforeUpdate: true,
        Body: dumping(`{
            model: dump(model), saved: dump(saved), savedFrozen: Object.isFrozen(saved),
            context: { ...context, QueryData: context.QueryStrings.Data('x'), FormsData: context.Forms.Data('ClassA'),
              GroupsLength: context.Groups.Length, GroupsCount: context.Groups.Count,
              methods: ['Log', 'Error', 'AddMessage', 'Redirect', 'AddResponse', 'ResponseSet'].map((name) => typeof context[name]) } }`),
      };
      // The editor's columns without a value show the reference's empty values; ClassZ is in no editor.
      const editor = ['Title', 'ClassA', 'NumA', 'DateA', 'CheckA', 'DescriptionB', 'DescriptionA'];
      const empty = ['ClassC', 'NumC', 'NumD', 'DateC', 'DescriptionC', 'CheckC'];
      siteId = await withScripts([], {
        SiteSettings: {
          ServerScripts: [script],
          EditorColumnHash: { General: [...editor, ...empty] },
          Columns: [{ ColumnName: 'NumD', Nullable: true }],
        },
      });
      id = await createRecord(stack.url, writer.apiKey, siteId, {
        Title: 'old',
        Body: 'the body',
        Status: 200,
        Manager: writer.userId,
        Owner: 1,
        StartTime: '2026-03-01T09:00:00',
        CompletionTime: '2026-03-10',
        WorkValue: 10,
        ProgressRate: 50,
        Comments: 'first',
        ClassHash: { ClassA: 'a' },
        NumHash: { NumA: 12 },
        DateHash: { DateA: '2026-03-01T10:00:00' },
        CheckHash: { CheckA: true },
        DescriptionHash: { DescriptionB: 'desc' },
        AttachmentsHash: { AttachmentsA: [{ Name: 'a.txt', Base64: 'aGk=' }] },
      });
      const updated = await call(
        stack.url,
        `/api/items/${id}/update?x=1`,
        { Title: 'new', ApiVersion: 1.1 },
        { cookies, headers: { 'x-requested-with': 'XMLHttpRequest' } },
      );
      expect(updated.body.StatusCode).toBe(200);
      seen = await dumped(id);
    });

    const date = (iso: string) => `Date:${iso}`;
    it.each([
      ['ReadOnly', () => false],
      ['SiteId', () => siteId],
      ['IssueId', () => id],
      ['Title', () => 'new'],
      ['Body', () => 'the body'],
      ['Ver', () => 1],
      ['Creator', () => writer.userId],
      ['Updator', () => writer.userId],
      ['ClassA', () => 'a'],
      ['NumA', () => 12],
      // Dates are UTC Dates: 10:00 in Tokyo (the caller's zone) is 01:00 UTC.
      ['DateA', () => date('2026-03-01T01:00:00.000Z')],
      ['CheckA', () => true],
      ['DescriptionB', () => 'desc'],
      ['StartTime', () => date('2026-03-01T00:00:00.000Z')],
      // The stored value, as the reference's model shows it: a date-only CompletionTime is a day later.
      ['CompletionTime', () => date('2026-03-10T15:00:00.000Z')],
      ['WorkValue', () => 10],
      ['ProgressRate', () => 50],
      ['RemainingWorkValue', () => 5],
      ['Status', () => 200],
      ['Manager', () => writer.userId],
      ['Owner', () => 1],
      ['Locked', () => false],
      ['ClassC', () => ''],
      ['NumC', () => 0],
      ['NumD', () => null],
      // The unset date, 1899-12-30 in Tokyo.
      ['DateC', () => date('1899-12-29T15:00:00.000Z')],
      ['DescriptionC', () => ''],
      ['CheckC', () => false],
      ['ClassZ', () => undefined],
    ])('model.%s', (name, expected) => {
      expect(seen.model[name]).toEqual(expected());
    });

    it.each([['CreatedTime'], ['UpdatedTime']])('model.%s is a Date', (name) => {
      expect(seen.model[name]).toMatch(/^Date:\d{4}-\d\d-\d\dT/);
    });

    it('model.Comments and model.AttachmentsA are JSON text', () => {
      expect(JSON.parse(seen.model.Comments as string)).toEqual([
        { CommentId: 1, CreatedTime: expect.any(String), Creator: writer.userId, Body: 'first' },
      ]);
      expect(JSON.parse(seen.model.AttachmentsA as string)).toEqual([
        expect.objectContaining({ Name: 'a.txt', Guid: expect.any(String) }),
      ]);
    });

    it('saved is the stored record, frozen', () => {
      expect(seen.saved).toMatchObject({ Title: 'old', Ver: 1, ClassA: 'a', IssueId: id });
      expect((seen as unknown as { savedFrozen: boolean }).savedFrozen).toBe(true);
    });

    it.each([
      ['TenantId', () => 1],
      ['SiteId', () => siteId],
      ['Id', () => id],
      ['SiteTitle', () => 'Model site'],
      ['RecordTitle', () => 'old'],
      ['ReferenceType', () => 'Issues'],
      ['UserId', () => writer.userId],
      ['LoginId', () => writer.loginId],
      ['DeptId', () => 0],
      ['Groups', () => [groupId]],
      ['GroupsLength', () => 1],
      ['GroupsCount', () => 1],
      ['Language', () => 'ja'],
      ['TimeZoneInfo', () => 'Asia/Tokyo'],
      ['HasPrivilege', () => false],
      ['ApiVersion', () => 1.1],
      ['ApiRequestBody', () => JSON.stringify({ Title: 'new', ApiVersion: 1.1 })],
      ['RequestDataString', () => JSON.stringify({ Title: 'new', ApiVersion: 1.1 })],
      ['ContentType', () => 'application/json'],
      ['HttpMethod', () => 'POST'],
      ['Controller', () => 'items'],
      ['Action', () => 'update'],
      ['Query', () => '?x=1'],
      ['QueryData', () => '1'],
      ['FormsData', () => ''],
      ['FormString', () => ''],
      ['ControlId', () => ''],
      ['AbsoluteUri', () => `${stack.url}/api/items/${id}/update?x=1`],
      ['Url', () => `${stack.url}/api/items/${id}/update?x=1`],
      ['AbsolutePath', () => `/api/items/${id}/update`],
      ['ApplicationPath', () => '/'],
      ['UrlReferrer', () => null],
      ['Ajax', () => true],
      ['Mobile', () => false],
      ['ServerScript', () => ({ ScriptDepth: 0, OnTesting: false })],
      ['Condition', () => 'BeforeUpdate'],
      ['UserData', () => ({})],
      ['methods', () => Array(6).fill('function')],
    ])('context.%s', (name, expected) => {
      expect(seen.context[name]).toEqual(expected());
    });

    it('context.TenantTitle is the tenant name', async () => {
      expect(seen.context.TenantTitle).toBe((await getTenant(1))?.tenantName);
    });
  });

  it('keeps the ApiKey out of context.ApiRequestBody', async () => {
    const siteId = await withScripts([
      { BeforeUpdate: true, Body: dumping('[context.ApiRequestBody, context.Ajax]') },
    ]);
    const id = await createRecord(stack.url, writer.apiKey, siteId);
    await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Title: 't', ClassHash: { ClassB: 'b' } });
    expect(await dumped(id)).toEqual([JSON.stringify({ Title: 't', ClassHash: { ClassB: 'b' } }), false]);
  });

  it('shows saved empty and RecordTitle empty on a create, with the site as context.Id', async () => {
    const siteId = await withScripts([
      {
        BeforeCreate: true,
        Body: dumping('[Object.keys(saved).length, context.RecordTitle, context.Id, context.Action]'),
      },
    ]);
    const id = await createRecord(stack.url, writer.apiKey, siteId);
    expect(await dumped(id)).toEqual([0, '', siteId, 'create']);
  });

  describe('writes to model in a Before condition', () => {
    it.each([
      ['Title', 'model.Title = "T2";', { Title: 'T2' }],
      ['Body', 'model.Body = "B2";', { Body: 'B2' }],
      ['Status', 'model.Status = 900;', { Status: 900 }],
      ['Manager and Owner', 'model.Manager = 1; model.Owner = 0;', { Manager: 1, Owner: 0 }],
      [
        'StartTime as a Date',
        'model.StartTime = new Date("2026-04-01T00:00:00Z");',
        { StartTime: '2026-04-01T09:00:00' },
      ],
      // Taken as the API takes it: a date-only CompletionTime is the day shown.
      [
        'CompletionTime as text',
        'model.CompletionTime = "2026/04/20";',
        { CompletionTime: '2026-04-20T00:00:00' },
      ],
      [
        'WorkValue and ProgressRate',
        'model.WorkValue = 8; model.ProgressRate = 25;',
        { RemainingWorkValue: 6 },
      ],
      ['Locked', 'model.Locked = true;', { Locked: true }],
      ['a Class column', 'model.ClassA = "x";', { ClassHash: { ClassA: 'x' } }],
      ['a Num column', 'model.NumA = 3;', { NumHash: { NumA: 3 } }],
      [
        'a Date column from its Date',
        'model.DateA = new Date(model.DateA.getTime() + 86400000);',
        { DateHash: { DateA: '2026-03-02T10:00:00' } },
      ],
      ['a Check column', 'model.CheckA = false;', { CheckHash: { CheckA: false } }],
      [
        'a Num column emptied',
        'model.NumA = null; model.ClassA = "emptied";',
        { ClassHash: { ClassA: 'emptied' } },
      ],
    ])('saves %s', async (_, body, expected) => {
      const siteId = await withScripts([{ BeforeUpdate: true, Body: body }]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, {
        NumHash: { NumA: 1 },
        DateHash: { DateA: '2026-03-01T10:00:00' },
      });
      const updated = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      expect(updated.body.StatusCode).toBe(200);
      const saved = await record(id);
      expect(saved).toMatchObject(expected);
      if (body.includes('NumA = null')) expect(saved?.NumHash).toBeUndefined();
    });

    it('appends a comment, first, from a string assigned to Comments', async () => {
      const siteId = await withScripts([{ BeforeUpdate: true, Body: 'model.Comments = "second";' }]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { Comments: 'first' });
      await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      const comments = JSON.parse(String((await record(id))?.Comments));
      expect(comments.map((comment: { Body: string }) => comment.Body)).toEqual(['second', 'first']);
    });

    it.each([
      ['Ver', 'model.Ver = 99;'],
      ['SiteId', 'model.SiteId = 1;'],
      ['IssueId', 'model.IssueId = 1;'],
      ['Creator and Updator', 'model.Creator = 1; model.Updator = 1;'],
      ['the times', 'model.CreatedTime = new Date(0); model.UpdatedTime = new Date(0);'],
      ['RemainingWorkValue', 'model.RemainingWorkValue = 1;'],
      ['the screen-only extras', 'model.ExtendedRowCss = "own"; model.UpdateOnExit = true;'],
    ])('drops a write to %s, as the reference does, and saves the rest', async (_, body) => {
      const siteId = await withScripts([{ BeforeUpdate: true, Body: `${body} model.ClassA = "kept";` }]);
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      const before = await record(id);
      const updated = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      expect(updated.body.StatusCode).toBe(200);
      expect(await record(id)).toMatchObject({
        SiteId: siteId,
        IssueId: id,
        Ver: 1,
        Creator: writer.userId,
        CreatedTime: before?.CreatedTime,
        ClassHash: { ClassA: 'kept' },
      });
    });

    it.each([
      ['no column', 'model.Colour = "red";', 400, 'model.Colour: no such column'],
      ['an attachment', 'model.AttachmentsA = "[]";', 400, 'model.AttachmentsA: is read-only'],
      ['a Num as text', 'model.NumA = "12";', 400, 'model.NumA: wrong type (string)'],
      ['an invalid Date', 'model.DateA = new Date("x");', 400, 'model.DateA: wrong type (invalid Date)'],
      ['a Manager as text', 'model.Manager = "1";', 400, 'model.Manager: wrong type (string)'],
      ['Comments as a number', 'model.Comments = 1;', 400, 'model.Comments: wrong type (number)'],
      ['ReadOnly', 'model.ReadOnly = true;', 403, 'You do not have permission'],
    ])('refuses %s, saving nothing', async (_, body, status, message) => {
      const siteId = await withScripts([{ BeforeUpdate: true, Body: body }]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { Title: 'kept' });
      const result = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Title: 'lost' });
      expect(result.status).toBe(status);
      expect(result.body.Message).toContain(message);
      expect(await record(id)).toMatchObject({ Title: 'kept', Ver: 1 });
    });

    it('refuses a Results site the Issues fields', async () => {
      const siteId = await withScripts([{ BeforeUpdate: true, Body: 'model.StartTime = new Date();' }], {
        ReferenceType: 'Results',
      });
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      const result = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      expect(result.body).toMatchObject({ StatusCode: 400 });
      expect(result.body.Message).toContain('model.StartTime: no such column');
    });

    it('makes the record read-only for a delete too', async () => {
      const siteId = await withScripts([{ BeforeDelete: true, Body: 'model.ReadOnly = true;' }]);
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      expect((await post(`/api/items/${id}/delete`, { ApiKey: writer.apiKey })).status).toBe(403);
      expect(await record(id)).toBeDefined();
    });
  });
});

describe('server scripts: siteSettings', () => {
  it('shows DefaultViewId, Sections and finds sites by title', async () => {
    const hidden = await createSite(stack.url, admin, 0, { Title: 'Hidden target' });
    const seen = await createSite(stack.url, admin, 0, {
      Title: 'Seen target',
      Permissions: [`User,${writer.userId},1`],
    });
    const script = {
      BeforeUpdate: true,
      Body: dumping(`[siteSettings.DefaultViewId, siteSettings.Sections,
        siteSettings.SiteId('Seen target'), siteSettings.SiteId('Hidden target'), siteSettings.SiteId('nothing'),
        siteSettings.SiteId('Model site'), (siteSettings.DefaultViewId = 5, siteSettings.DefaultViewId),
        Object.isFrozen(siteSettings.Sections)]`),
    };
    const siteId = await withScripts([], {
      SiteSettings: {
        GridView: 2,
        Views: [{ Id: 2, Name: 'two' }],
        Sections: [{ Id: 1, LabelText: 'Details', AllowExpand: true }],
        ServerScripts: [script],
      },
    });
    const id = await createRecord(stack.url, writer.apiKey, siteId);
    await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
    expect(await dumped(id)).toEqual([
      2,
      [{ Id: 1, LabelText: 'Details', AllowExpand: true, Expand: true }],
      seen,
      0,
      0,
      siteId,
      5,
      true,
    ]);
    expect(hidden).toBeGreaterThan(0);
  });
});
