import { describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../../lib/config/settings';
import { md5, multipartBody, patternBytes, postRaw, rangeOf, uploadFile } from '../../fixtures/binaries';
import {
  admin,
  download,
  GUID,
  guidUrl,
  injectFault,
  outsider,
  reader,
  stack,
  uploaded,
  uploadUrl,
  useBinariesStack,
  VECTOR,
  VECTOR_MD5,
  writer,
} from '../../fixtures/binaries-suite';
import { call } from '../../fixtures/client';
import { createRecord, createSite } from '../../fixtures/items';

useBinariesStack();

describe('the reference test vector', () => {
  it('stores AttachmentsTest sent in one request, FileHash checked', async () => {
    const answer = await uploadFile(
      uploadUrl(),
      writer.apiKey,
      { fileName: 'AttachmentsTest.txt', bytes: VECTOR, contentType: 'text/plain' },
      { FileHash: VECTOR_MD5 },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      Id: expect.any(Number),
      StatusCode: 200,
      Message: expect.stringMatching(GUID),
    });
    expect(answer.body.Id).toBeGreaterThan(0);
    const file = await download(String(answer.body.Message), writer.apiKey);
    expect(file.bytes?.toString()).toBe('AttachmentsTest');
  });

  it('stores AttachmentsTest sent in two chunks, FileHash checked at the last', async () => {
    const first = await uploadFile(uploadUrl(), writer.apiKey, {
      fileName: 'AttachmentsTest.txt',
      bytes: VECTOR.subarray(0, 7),
      contentRange: rangeOf(0, 7, 15),
    });
    expect(first.body).toEqual({ Id: 0, StatusCode: 200, Message: expect.stringMatching(GUID) });
    const second = await uploadFile(
      uploadUrl(),
      writer.apiKey,
      { fileName: 'AttachmentsTest.txt', bytes: VECTOR.subarray(7), contentRange: rangeOf(7, 8, 15) },
      { FileHash: VECTOR_MD5 },
    );
    expect(second.body).toEqual({ Id: expect.any(Number), StatusCode: 200, Message: first.body.Message });
    expect(second.body.Id).toBeGreaterThan(0);
    const file = await download(String(first.body.Message), writer.apiKey);
    expect(md5(file.bytes ?? Buffer.alloc(0))).toBe(VECTOR_MD5);
  });
});

describe('the chunk table (web-api.txt 3)', () => {
  const total = 30;
  const bytes = patternBytes(total, 3);
  const chunk = (from: number, length: number, fields: Record<string, string> = {}, name = 'table.bin') =>
    uploadFile(
      uploadUrl(),
      writer.apiKey,
      {
        fileName: name,
        bytes: bytes.subarray(from, from + length),
        contentRange: rangeOf(from, length, total),
      },
      fields,
    );

  it.each([
    ['no data received', 'first chunk (start offset 0)', 'none', 'a GUID, Id 0'],
    ['partial data received', 'next chunk', 'offset equals the size received', 'same GUID, Id 0'],
    ['partial data received', 'next chunk', 'offset differs from the size received', '400'],
    ['partial data received', 'last chunk', 'FileHash absent', 'registered: Id BinaryId, Message GUID'],
    [
      'partial data received',
      'last chunk',
      'FileHash equal to the MD5',
      'registered: Id BinaryId, Message GUID',
    ],
    ['partial data received', 'last chunk', 'FileHash different', '400'],
  ])('%s, %s, %s → %s', async (_situation, trigger, condition, result) => {
    const name = `${trigger}-${condition}.bin`;
    const first = await chunk(0, 10, {}, name);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ Id: 0, StatusCode: 200, Message: expect.stringMatching(GUID) });
    const guid = String(first.body.Message);
    if (trigger.startsWith('first')) return;

    if (trigger === 'next chunk') {
      const from = condition.includes('equals') ? 10 : 12;
      const next = await chunk(from, 10, {}, name);
      expect(next.status).toBe(200);
      if (result === '400') {
        expect(next.body).toEqual({
          Id: 0,
          StatusCode: 400,
          Message: 'Invalid request.',
          Errors: expect.any(Array),
        });
        // The bytes received are kept: the chunk resent from the right offset goes on.
        expect((await chunk(10, 10, {}, name)).body).toEqual({ Id: 0, StatusCode: 200, Message: guid });
      } else {
        expect(next.body).toEqual({ Id: 0, StatusCode: 200, Message: guid });
      }
      return;
    }

    expect((await chunk(10, 10, {}, name)).body.Message).toBe(guid);
    const fields: Record<string, string> = condition.includes('absent')
      ? {}
      : { FileHash: condition.includes('equal') ? md5(bytes).toUpperCase() : md5(Buffer.from('other')) };
    const last = await chunk(20, 10, fields, name);
    expect(last.status).toBe(200);
    if (result === '400') {
      expect(last.body).toEqual({
        Id: 0,
        StatusCode: 400,
        Message: 'Invalid request.',
        Errors: expect.any(Array),
      });
      // The upload is discarded: a later chunk finds none.
      expect((await chunk(20, 10, {}, name)).body.StatusCode).toBe(400);
      expect((await download(guid, writer.apiKey)).status).toBe(404);
      return;
    }
    expect(last.body).toEqual({ Id: expect.any(Number), StatusCode: 200, Message: guid });
    expect(Number(last.body.Id)).toBeGreaterThan(0);
    expect((await download(guid, writer.apiKey)).bytes).toEqual(bytes);
  });
});

describe('the StatusCode table (web-api.txt 7.2)', () => {
  const small = { fileName: 'row.txt', bytes: VECTOR, contentType: 'text/plain' };
  /** A record of a site whose AttachmentsA column has `limits`, holding one file; the file's GUID. */
  async function attachedIn(limits: object = {}, permissions: string[] = [`User,${writer.userId},15`]) {
    const site = await createSite(stack.url, admin, 0, {
      ReferenceType: 'Results',
      Permissions: permissions,
      SiteSettings: { Columns: [{ ColumnName: 'AttachmentsA', ...limits }] },
    });
    const guid = await uploaded(writer.apiKey, VECTOR, 'row.txt', site);
    const id = await createRecord(stack.url, writer.apiKey, site, {
      Title: 'Row',
      AttachmentsA: [{ Guid: guid, Name: 'row.txt', Added: true }],
    });
    return { site, id, guid };
  }

  it.each([
    [200, 'Success', 'GUID of the file', async () => uploadFile(uploadUrl(), writer.apiKey, small)],
    [
      400,
      'Invalid request',
      'Invalid-request message',
      async () => uploadFile(uploadUrl(0), writer.apiKey, small),
    ],
    [
      401,
      'Authentication error',
      'Could-not-authenticate message',
      async () => uploadFile(uploadUrl(), 'f'.repeat(128), small),
    ],
    [
      403,
      'No permission',
      'No-permission message',
      async () => {
        const { guid } = await attachedIn({}, [`User,${writer.userId},15`, `User,${reader.userId},1`]);
        return uploadFile(guidUrl(guid, '?overwrite=true'), reader.apiKey, small);
      },
    ],
    [
      404,
      'Target not found',
      'Not-found message',
      async () => uploadFile(guidUrl('F'.repeat(32)), writer.apiKey, small),
    ],
    [
      405,
      'Record locked',
      'Message naming the record and the locking user and time',
      async () => {
        const { id, guid } = await attachedIn({}, [`User,${writer.userId},15`, `User,${outsider.userId},15`]);
        await call(stack.url, `/api/items/${id}/update`, { ApiKey: writer.apiKey, Locked: true });
        return uploadFile(guidUrl(guid, '?overwrite=true'), outsider.apiKey, small);
      },
    ],
    [
      429,
      'API limit exceeded',
      'Message naming the site and the limit per day',
      async () => {
        // The record's create is the site's one call of the day.
        useSettings(loadSettings({ ...process.env, KIROKU_PARAM_Api_LimitPerSite: '1' }));
        const { guid } = await attachedIn();
        return uploadFile(guidUrl(guid, '?overwrite=true'), writer.apiKey, small);
      },
    ],
    [
      442,
      'File size over the limit',
      'Over-capacity message for a file',
      async () => {
        useSettings(loadSettings({ ...process.env, KIROKU_PARAM_BinaryStorage_MaxSize: '0.00001' }));
        return uploadFile(uploadUrl(), writer.apiKey, small);
      },
    ],
    [
      443,
      'Total size over the limit',
      'Total attachable capacity message',
      async () => {
        const { guid } = await attachedIn({ TotalLimitSize: 0.00002 });
        return uploadFile(guidUrl(guid), writer.apiKey, small);
      },
    ],
    [
      500,
      'Server error',
      'Message by cause',
      async () => {
        const fault = injectFault('s3', 'before', (command) => command === 'PutObjectCommand');
        try {
          return await uploadFile(uploadUrl(), writer.apiKey, small);
        } finally {
          fault.stop();
        }
      },
    ],
  ] as const)('StatusCode %i: %s (%s)', async (statusCode, _meaning, message, send) => {
    const answer = await send();
    expect(answer.body).toMatchObject({ StatusCode: statusCode });
    // Every processed request is HTTP 200; a server fault is an HTTP 500 (CONTRACT section 1).
    expect(answer.status).toBe(statusCode === 500 ? 500 : 200);
    const text = String(answer.body.Message);
    const expected: Record<number, RegExp> = {
      200: GUID,
      400: /^Invalid request\.$/,
      401: /^Unable to authorize\.$/,
      403: /^You do not have permission to perform this operation\.$/,
      404: /^The specified information was not found\.$/,
      405: /^Record \d+ has been locked by .+ at .+\.$/,
      429: /^The API limit \(1 Requests\/Day\) that can be used on the site with ID \d+ has been exceeded\.$/,
      442: /^There is a file exceeding the max\. size of 0\.00001 MB\.$/,
      443: /^Up to 0\.00002 MB can be attached\.$/,
      500: /^An internal server error occurred\.$/,
    };
    expect(text, message).toMatch(expected[statusCode] as RegExp);
  });
});

describe('HTTP status and StatusCode (web-api.txt 7.2)', () => {
  const file = { fileName: 'a.txt', bytes: VECTOR, contentType: 'text/plain' };

  it.each([
    ['id missing', 200, 400, () => uploadFile(`${stack.url}/api/binaries/upload`, writer.apiKey, file)],
    ['id 0', 200, 400, () => uploadFile(uploadUrl(0), writer.apiKey, file)],
    ['id not a number', 200, 400, () => uploadFile(uploadUrl('x'), writer.apiKey, file)],
    ['an invalid API key in the header', 200, 401, () => uploadFile(uploadUrl(), 'f'.repeat(128), file)],
    [
      'no file in the content',
      404,
      404,
      () => {
        const form = multipartBody([], { FileHash: VECTOR_MD5 });
        return postRaw(uploadUrl(), form.body, {
          authorization: `Bearer ${writer.apiKey}`,
          'content-type': form.contentType,
        });
      },
    ],
    [
      'a content type that is not multipart',
      404,
      404,
      () =>
        postRaw(uploadUrl(), JSON.stringify({ a: 1 }), {
          authorization: `Bearer ${writer.apiKey}`,
          'content-type': 'application/json',
        }),
    ],
    [
      'content that cannot be interpreted',
      500,
      500,
      () =>
        postRaw(uploadUrl(), 'not a multipart body at all', {
          authorization: `Bearer ${writer.apiKey}`,
          'content-type': 'multipart/form-data; boundary=xyz',
        }),
    ],
  ] as const)('%s → HTTP %i, StatusCode %i', async (_case, http, statusCode, send) => {
    const answer = await send();
    expect(answer.status).toBe(http);
    expect(answer.body).toEqual({
      Id: 0,
      StatusCode: statusCode,
      Message: expect.any(String),
      // A 400 says what was wrong with the input.
      ...(statusCode === 400 && { Errors: expect.any(Array) }),
    });
  });

  it('uses the first file of the form and ignores the rest and the field names', async () => {
    const form = multipartBody([
      { name: 'whatever', fileName: 'first.txt', bytes: Buffer.from('first') },
      { name: 'file', fileName: 'second.txt', bytes: Buffer.from('second') },
    ]);
    const answer = await postRaw(uploadUrl(), form.body, {
      authorization: `Bearer ${writer.apiKey}`,
      'content-type': form.contentType,
    });
    const guid = String(answer.body.Message);
    expect((await download(guid, writer.apiKey)).bytes?.toString()).toBe('first');
    const json = await call(stack.url, `/api/binaries/${guid}/get`, { ApiKey: writer.apiKey });
    expect(json.body).toMatchObject({ Response: { FileName: 'first.txt', Extension: '.txt', Size: 5 } });
  });

  it('takes the request’s Content-Range when the file part has none, as `curl -H` sends it (CONTRACT 6)', async () => {
    const bytes = patternBytes(1000, 22);
    const answers = [];
    for (const from of [0, 300, 600, 900]) {
      const chunk = bytes.subarray(from, Math.min(from + 300, bytes.length));
      const last = from + chunk.length === bytes.length;
      const range = rangeOf(from, chunk.length, bytes.length);
      // The last chunk carries its range in its part too, and a wrong one on the request: the part's wins.
      const form = multipartBody(
        [{ fileName: 'curl.bin', bytes: chunk, ...(last && { contentRange: range }) }],
        last ? { FileHash: md5(bytes).toUpperCase() } : {},
      );
      const headers = { authorization: `Bearer ${writer.apiKey}`, 'content-type': form.contentType };
      answers.push(
        await postRaw(uploadUrl(), form.body, {
          ...headers,
          'content-range': last ? 'bytes 0-4/100' : range,
        }),
      );
    }
    const guid = answers[0]?.body.Message;
    expect(guid).toMatch(GUID);
    expect(answers.map((answer) => answer.body)).toEqual([
      { Id: 0, StatusCode: 200, Message: guid },
      { Id: 0, StatusCode: 200, Message: guid },
      { Id: 0, StatusCode: 200, Message: guid },
      { Id: expect.any(Number), StatusCode: 200, Message: guid },
    ]);
    expect((await download(String(guid), writer.apiKey)).bytes?.equals(bytes)).toBe(true);
  });

  it('checks FileHash against a file sent without Content-Range (the reference fails with 500)', async () => {
    const bad = await uploadFile(uploadUrl(), writer.apiKey, file, { FileHash: 'a'.repeat(32) });
    expect(bad.body).toEqual({
      Id: 0,
      StatusCode: 400,
      Message: 'Invalid request.',
      Errors: expect.any(Array),
    });
    const good = await uploadFile(uploadUrl(), writer.apiKey, file, { FileHash: VECTOR_MD5 });
    expect(Number(good.body.Id)).toBeGreaterThan(0);
  });

  it.each([
    ['fewer than three numbers', 'bytes 0-99/*'],
    ['an end past the total', 'bytes 0-14/10'],
    ['a start past the end', 'bytes 9-3/15'],
    ['a length that is not the chunk’s', 'bytes 0-9/15'],
  ])('answers 400 for a Content-Range with %s', async (_case, contentRange) => {
    const answer = await uploadFile(uploadUrl(), writer.apiKey, { ...file, contentRange });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      Id: 0,
      StatusCode: 400,
      Message: 'Invalid request.',
      Errors: expect.any(Array),
    });
  });

  it('answers 400 for a later chunk when no upload is in progress', async () => {
    const answer = await uploadFile(uploadUrl(), writer.apiKey, { ...file, contentRange: 'bytes 5-19/20' });
    expect(answer.body).toEqual({
      Id: 0,
      StatusCode: 400,
      Message: 'Invalid request.',
      Errors: expect.any(Array),
    });
  });

  it('continues no other user’s upload, even with the same id and file name', async () => {
    const first = await uploadFile(uploadUrl(), writer.apiKey, {
      ...file,
      bytes: VECTOR.subarray(0, 5),
      contentRange: rangeOf(0, 5, 15),
    });
    expect(first.body.StatusCode).toBe(200);
    const stranger = await uploadFile(uploadUrl(), admin, {
      ...file,
      bytes: VECTOR.subarray(5),
      contentRange: rangeOf(5, 10, 15),
    });
    expect(stranger.body.StatusCode).toBe(400);
  });

  it('answers 442 at the first chunk when the declared total is over MaxSize, and for a whole file', async () => {
    useSettings(loadSettings({ ...process.env, KIROKU_PARAM_BinaryStorage_MaxSize: '1' }));
    const declared = await uploadFile(uploadUrl(), writer.apiKey, {
      ...file,
      contentRange: rangeOf(0, VECTOR.length, 1024 * 1024 + 1),
    });
    expect(declared.status).toBe(200);
    expect(declared.body).toEqual({
      Id: 0,
      StatusCode: 442,
      Message: 'There is a file exceeding the max. size of 1 MB.',
    });
    const whole = await uploadFile(uploadUrl(), writer.apiKey, {
      ...file,
      bytes: patternBytes(1024 * 1024 + 1),
    });
    expect(whole.body.StatusCode).toBe(442);
    const fits = await uploadFile(uploadUrl(), writer.apiKey, {
      ...file,
      bytes: patternBytes(1024 * 1024),
    });
    expect(fits.body.StatusCode).toBe(200);
  });

  it('takes a login cookie with X-Requested-With instead of a key', async () => {
    const login = await call(stack.url, '/users/authenticate', {
      LoginId: writer.loginId,
      Password: writer.password,
    });
    const form = multipartBody([{ fileName: 'c.txt', bytes: VECTOR }]);
    const headers = { cookie: login.cookies.join('; '), 'content-type': form.contentType };
    const refused = await postRaw(uploadUrl(), form.body, headers);
    expect(refused.body.StatusCode).toBe(403);
    const answer = await postRaw(uploadUrl(), form.body, {
      ...headers,
      'x-requested-with': 'XMLHttpRequest',
    });
    expect(Number(answer.body.Id)).toBeGreaterThan(0);
  });
});
