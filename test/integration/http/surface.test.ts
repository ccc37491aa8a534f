import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../../fixtures/accounts';
import { call } from '../../fixtures/client';
import { type Stack, startStack } from '../../fixtures/stack';

/** What a newcomer meets first, on a stack under a base path: paths, the document, a 400's reason. */
describe('the API surface under a base path', () => {
  let stack: Stack;
  let accounts: TestAccounts;

  beforeAll(async () => {
    stack = await startStack({ basePath: '/kiroku' });
    accounts = await seedAccounts(stack.url);
  });
  afterAll(() => stack.close());

  const root = () => stack.url.replace(/\/kiroku$/, '');

  it.each([
    ['a path outside the base path', () => `${root()}/api/sessions/get`, 'POST', 404],
    ['a prefix that only starts like the base path', () => `${root()}/kirokux/api/sessions/get`, 'POST', 404],
    ['an unknown path inside it', () => `${stack.url}/api/nothing`, 'POST', 404],
    ['a known path with another method', () => `${stack.url}/api/sessions/get`, 'GET', 405],
  ] as const)('%s answers as JSON', async (_name, url, method, status) => {
    const response = await fetch(url(), { method });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await response.json()) as { StatusCode: number }).StatusCode).toBe(status);
  });

  it('serves the OpenAPI document with the URL it was fetched from as its server', async () => {
    const response = await call(stack.url, '/api/openapi.json', undefined, { method: 'GET' });
    expect(response.status).toBe(200);
    expect(response.body.servers).toEqual([{ url: stack.url }]);
    expect(stack.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/kiroku$/);
  });

  it.each([
    ['a missing property', { Title: undefined }, 'Title'],
    ['a property of the wrong type', { Title: { text: 'no' } }, 'Title'],
    ['an unknown ReferenceType', { ReferenceType: 'Spreadsheets' }, 'ReferenceType'],
  ])('answers %s with the reference Message and the property in Errors', async (_name, change, property) => {
    const body = { ApiKey: accounts.admin.apiKey, Title: 't', ReferenceType: 'Results', ...change };
    const response = await call(stack.url, '/api/items/0/createsite', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ Id: 0, StatusCode: 400, Message: 'Invalid request.' });
    expect(response.body.Errors).toEqual([{ Property: property, Problem: expect.any(String) }]);
  });

  it('keeps a refusal that is not the input’s without Errors', async () => {
    const response = await call(stack.url, '/api/items/0/createsite', { ApiKey: 'f'.repeat(128) });
    expect(response.body).toEqual({ Id: 0, StatusCode: 401, Message: 'Unable to authorize.' });
  });
});
