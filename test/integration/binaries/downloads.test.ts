import { describe, expect, it } from 'vitest';
import { patternBytes } from '../../fixtures/binaries';
import {
  accounts,
  download,
  outsider,
  reader,
  recordWith,
  stack,
  uploaded,
  useBinariesStack,
  VECTOR,
  writer,
} from '../../fixtures/binaries-suite';
import { call } from '../../fixtures/client';

useBinariesStack();

describe('downloads', () => {
  it('lets the uploader of a file not yet attached download it', async () => {
    const guid = await uploaded(writer.apiKey, VECTOR, 'mine.txt', 999_999);
    const file = await download(guid, writer.apiKey);
    expect(file.status).toBe(302);
    expect(file.bytes?.equals(VECTOR)).toBe(true);
    expect(file.disposition).toBe("attachment; filename*=UTF-8''mine.txt");
    expect(file.location).toMatch(/X-Amz-Expires=60/);
  });

  it.each([
    ['the uploader', () => writer.apiKey, 302],
    ['a reader of the site', () => reader.apiKey, 302],
    ['a user without Read', () => outsider.apiKey, 404],
    ['another tenant', () => accounts.other.apiKey, 404],
  ])('answers %s of an attached file with %i', async (_case, key, status) => {
    const guid = await uploaded(writer.apiKey, VECTOR, 'shared.txt');
    await recordWith(writer.apiKey, guid);
    const file = await download(guid, key());
    expect(file.status).toBe(status);
    if (status === 302) expect(file.bytes?.equals(VECTOR)).toBe(true);
    else
      expect(JSON.parse(String(file.body))).toEqual({
        Id: 0,
        StatusCode: 404,
        Message: expect.any(String),
      });
    const json = await call(stack.url, `/api/binaries/${guid}/get`, { ApiKey: key() });
    expect(json.body.StatusCode).toBe(status === 302 ? 200 : 404);
  });

  it('shows a file inline for images embedded in text, with a login cookie', async () => {
    const guid = await uploaded(writer.apiKey, VECTOR, 'pic.png');
    const login = await call(stack.url, '/users/authenticate', {
      LoginId: writer.loginId,
      Password: writer.password,
    });
    const response = await fetch(`${stack.url}/binaries/${guid.toLowerCase()}/show`, {
      headers: { cookie: login.cookies.join('; ') },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const file = await fetch(response.headers.get('location') ?? '');
    expect(file.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''pic.png");
  });

  it('answers 401 in JSON without credentials, never a redirect to a login page', async () => {
    const guid = await uploaded(writer.apiKey);
    const response = await fetch(`${stack.url}/binaries/${guid}/download`, { redirect: 'manual' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ Id: 0, StatusCode: 401, Message: 'Unable to authorize.' });
  });

  it('refuses a file over 4 MB as JSON', async () => {
    const guid = await uploaded(writer.apiKey, patternBytes(4 * 1024 * 1024 + 1));
    const json = await call(stack.url, `/api/binaries/${guid}/get`, { ApiKey: writer.apiKey });
    expect(json.body.StatusCode).toBe(400);
  });
});
