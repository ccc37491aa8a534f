import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_LENGTH } from '../../lib/bounds';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { type CallResult, call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** Regression tests for the red-team pass's hostile inputs (issue 10, defects 1, 2, 4, 5, 6). */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let table: number;

const post = (path: string, body?: unknown, options = {}) => call(stack.url, path, body, options);
const xhr = { 'x-requested-with': 'XMLHttpRequest' };

/** `{"a":{"a":…1…}}` with `levels` objects. */
const nested = (levels: number) =>
  JSON.parse(`${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`);
/** The same as text, for depths JSON.stringify could not produce. */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

function expectRefusal(result: CallResult, status: number, naming?: string) {
  expect(result.status, result.text).toBe(status);
  expect(result.body.StatusCode).toBe(status);
  expect(result.text).not.toMatch(/\bat .+:\d+:\d+|Error:/);
  // The property is named in `Errors` (CONTRACT section 5); an upload's header in its message too.
  if (naming) expect(JSON.stringify(result.body.Errors ?? [])).toContain(naming);
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  table = await createSite(stack.url, admin, 0, {
    Title: 'Results',
    ReferenceType: 'Results',
    // Four decimal places (the most a Num column shows): a write rounds by DecimalPlaces, 0 by default.
    SiteSettings: { Columns: [{ ColumnName: 'NumA', DecimalPlaces: 4 }] },
  });
});
afterAll(() => stack.close());

describe('cookies that are not valid percent-encoding (defect 1)', () => {
  const bad = ['%', '%zz', '%E0%A4%A', 'a%2', '%ED%A0%80'];

  it.each(bad)('Kiroku_Auth=%s on an API route is no credential: 401', async (value) => {
    const result = await post(
      `/api/items/${table}/get`,
      {},
      { cookies: [`Kiroku_Auth=${value}`], headers: xhr },
    );
    expectRefusal(result, 401);
  });

  it.each(bad)('Kiroku_Auth=%s on a download is no credential: 401', async (value) => {
    const result = await post('/binaries/0123456789abcdef0123456789abcdef/download', undefined, {
      method: 'GET',
      cookies: [`Kiroku_Auth=${value}`],
    });
    expectRefusal(result, 401);
  });

  it.each(bad)('Kiroku_Auth=%s at sign-out signs nobody out and answers 200', async (value) => {
    const result = await post('/users/signout', {}, { cookies: [`Kiroku_Auth=${value}`], headers: xhr });
    expect(result.status, result.text).toBe(200);
  });

  it.each(bad)('Kiroku_SessionGuid=%s is no session: a new one is started', async (value) => {
    const result = await post(
      '/api/sessions/set',
      { ApiKey: admin, SessionKey: 'k', SessionValue: 'v' },
      { cookies: [`Kiroku_SessionGuid=${value}`] },
    );
    expect(result.status, result.text).toBe(200);
    expect(result.cookies.some((cookie) => cookie.startsWith('Kiroku_SessionGuid='))).toBe(true);
  });
});

describe('string lengths (defect 2)', () => {
  it.each([
    ['3,000 ASCII characters', 'a'.repeat(3000)],
    ['800 three-byte characters', '漢'.repeat(800)],
    [`${MAX_LENGTH.name + 1} characters`, 'b'.repeat(MAX_LENGTH.name + 1)],
  ])('a login id of %s at /users/authenticate is 400 naming LoginId', async (_name, loginId) => {
    expectRefusal(await post('/users/authenticate', { LoginId: loginId, Password: 'x' }), 400, 'LoginId');
  });

  it('a login id at the bound is an ordinary wrong login: 401', async () => {
    const result = await post('/users/authenticate', {
      LoginId: '漢'.repeat(MAX_LENGTH.name),
      Password: 'x',
    });
    expectRefusal(result, 401);
  });

  it('users/create takes a login id of 256 characters and refuses 257, naming it', async () => {
    const ok = await post('/api/users/create', { ApiKey: admin, LoginId: '漢'.repeat(256), Name: 'n' });
    expect(ok.body.StatusCode, ok.text).toBe(200);
    const over = await post('/api/users/create', { ApiKey: admin, LoginId: '漢'.repeat(257), Name: 'n' });
    expectRefusal(over, 400, 'LoginId');
  });

  it.each([
    ['Title', MAX_LENGTH.title],
    ['ClassA', MAX_LENGTH.title],
    ['Body', MAX_LENGTH.text],
    ['DescriptionB', MAX_LENGTH.text],
  ])('a record %s of %i characters is kept, one more is 400 naming it', async (field, max) => {
    const id = await createRecord(stack.url, admin, table, { [field]: 'x'.repeat(max) });
    const over = await post(`/api/items/${id}/update`, { ApiKey: admin, [field]: 'y'.repeat(max + 1) });
    expectRefusal(over, 400, field);
    const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
    expect(read.text).not.toContain('y'.repeat(100));
  });

  it('a session key over 251 characters is 400 naming SessionKey', async () => {
    const over = await post('/api/sessions/set', {
      ApiKey: admin,
      SessionKey: 'k'.repeat(252),
      SessionValue: 'v',
    });
    expectRefusal(over, 400, 'SessionKey');
  });
});

describe('nesting of free-form JSON (defect 4)', () => {
  const deep = [5_000, 50_000];

  it(`SiteSettings of ${MAX_JSON_DEPTH} levels is kept as given`, async () => {
    const settings = nested(MAX_JSON_DEPTH);
    const id = await createSite(stack.url, admin, 0, { SiteSettings: settings });
    const read = await post(`/api/items/${id}/getsite`, { ApiKey: admin });
    // Kept as given, beside the Version, ReferenceType and SiteId every stored form has (CONTRACT 11).
    expect((read.body.Response as { Data: { SiteSettings: unknown } }).Data.SiteSettings).toMatchObject(
      settings,
    );
  });

  it(`SiteSettings of ${MAX_JSON_DEPTH + 1} levels is 400 naming SiteSettings`, async () => {
    const body = {
      ApiKey: admin,
      Title: 't',
      ReferenceType: 'Sites',
      SiteSettings: nested(MAX_JSON_DEPTH + 1),
    };
    expectRefusal(await post('/api/items/0/createsite', body), 400, 'SiteSettings');
  });

  it.each(deep)('createsite with SiteSettings %i levels deep is 400', async (levels) => {
    const raw = `{"ApiKey":"${admin}","Title":"t","ReferenceType":"Sites","SiteSettings":${nestedText(levels)}}`;
    expectRefusal(await post('/api/items/0/createsite', undefined, { raw }), 400, 'nested deeper');
  });

  it.each(deep)('updatesite with SiteSettings %i levels deep is 400 and changes nothing', async (levels) => {
    const id = await createSite(stack.url, admin, 0, { SiteSettings: { kept: true } });
    const raw = `{"ApiKey":"${admin}","SiteSettings":${nestedText(levels)}}`;
    expectRefusal(await post(`/api/items/${id}/updatesite`, undefined, { raw }), 400, 'nested deeper');
    const read = await post(`/api/items/${id}/getsite`, { ApiKey: admin });
    expect((read.body.Response as { Data: { SiteSettings: unknown } }).Data.SiteSettings).toMatchObject({
      kept: true,
    });
  });

  it.each([MAX_JSON_DEPTH + 1, ...deep])(
    'importsitepackage with SiteSettings %i levels deep is 400',
    async (levels) => {
      const site = `{"SiteId":1,"Title":"t","ReferenceType":"Sites","ParentId":0,"InheritPermission":1,"Permissions":[],"SiteSettings":${nestedText(levels)}}`;
      const raw = `{"ApiKey":"${admin}","Package":{"Sites":[${site}]}}`;
      expectRefusal(await post('/api/items/0/importsitepackage', undefined, { raw }), 400, 'nested deeper');
    },
  );
});

describe('numbers (defect 5)', () => {
  it.each([
    ['NumA', '9007199254740993', 'NumA'],
    ['NumA', '1e-130', 'NumA'],
    ['NumA', '1e400', 'NumA'],
    ['NumA', '-1e400', 'NumA'],
    ['NumA', '100000000000000', 'NumA'],
    ['NumA', '-100000000000000', 'NumA'],
    ['NumA', '1.23456', 'NumA'],
    ['NumA', '99999999999999.9999', 'NumA'],
    ['NumA', '0.30000000000000004', 'NumA'],
    ['Status', '2147483648', 'Status'],
    ['Status', '1.5', 'body'],
  ])('%s: %s is 400 naming the field, and the record keeps its value', async (field, number, naming) => {
    const id = await createRecord(stack.url, admin, table, { NumA: 7, Status: 100 });
    const raw = `{"ApiKey":"${admin}","${field}":${number}}`;
    const refused = await post(`/api/items/${id}/update`, undefined, { raw });
    expectRefusal(refused, 400, naming === 'body' ? undefined : naming);
    const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
    const record = (read.body.Response as { Data: { NumHash: { NumA: number }; Status: number }[] }).Data[0];
    expect(record?.NumHash.NumA).toBe(7);
    expect(record?.Status).toBe(100);
  });

  it.each([
    ['99999999999999', 99999999999999],
    ['-99999999999999', -99999999999999],
    ['12345678901.2345', 12345678901.2345],
    ['0.0001', 0.0001],
    ['1.5e3', 1500],
    ['-0', 0],
    ['1.10', 1.1],
  ])('NumA: %s is kept exactly', async (number, expected) => {
    const raw = `{"ApiKey":"${admin}","Title":"n","NumHash":{"NumA":${number}}}`;
    const created = await post(`/api/items/${table}/create`, undefined, { raw });
    expect(created.body.StatusCode, created.text).toBe(200);
    const read = await post(`/api/items/${created.body.Id}/get`, { ApiKey: admin });
    expect((read.body.Response as { Data: { NumHash: { NumA: number } }[] }).Data[0]?.NumHash.NumA).toBe(
      expected,
    );
  });

  it('a number inside SiteSettings that a float cannot hold is 400, never stored as null', async () => {
    const raw = `{"ApiKey":"${admin}","Title":"t","ReferenceType":"Sites","SiteSettings":{"x":1e400}}`;
    expectRefusal(await post('/api/items/0/createsite', undefined, { raw }), 400, 'x');
  });
});

describe('multipart part headers (defect 6)', () => {
  const upload = (disposition: string) => {
    const boundary = 'kirokuboundary';
    const body = [
      `--${boundary}`,
      `Content-Disposition: form-data; name="file"; ${disposition}`,
      'Content-Type: text/plain',
      '',
      'hello',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    return post(`/api/binaries/upload?id=${table}`, undefined, {
      raw: body,
      contentType: `multipart/form-data; boundary=${boundary}`,
      headers: { authorization: `Bearer ${admin}` },
    });
  };

  it.each([
    `filename="plain.txt"; filename*=UTF-8''%ZZ.txt`,
    `filename*=UTF-8''%ZZ.txt`,
    `filename*=UTF-8''%E5%A0.txt`,
    `filename*=UTF-8''%`,
  ])('Content-Disposition with %s is 400 naming the header', async (disposition) => {
    expectRefusal(await upload(disposition), 400, 'Content-Disposition');
  });

  it('a file name over 1024 characters is 400 naming the header', async () => {
    expectRefusal(await upload(`filename="${'n'.repeat(1025)}.txt"`), 400, 'Content-Disposition');
  });

  it('a well-formed filename* is still taken', async () => {
    const result = await upload(`filename="x.txt"; filename*=UTF-8''%E5%A0%B1.txt`);
    expect(result.body.StatusCode, result.text).toBe(200);
  });
});
