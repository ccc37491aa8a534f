import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { dynamo } from '../../lib/storage/clients';
import { s3 } from '../../lib/storage/s3';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import {
  md5,
  multipartBody,
  patternBytes,
  postRaw,
  rangeOf,
  uploadFile,
  uploadInChunks,
} from '../fixtures/binaries';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** Read, Create, Update, Delete on `table`. */
let writer: TestUser;
/** Read only on `table`. */
let reader: TestUser;
/** Nothing on `table`. */
let outsider: TestUser;
let table: number;

const GUID = /^[0-9A-F]{32}$/;
/** The reference's test vector (reference/pleasanter-behaviour.md §8). */
const VECTOR = Buffer.from('AttachmentsTest');
const VECTOR_MD5 = '242988169a3d92a28807ff02153d5e3a';

const uploadUrl = (id: number | string = table) => `${stack.url}/api/binaries/upload?id=${id}`;
const guidUrl = (guid: string, query = '') => `${stack.url}/api/binaries/${guid}/upload${query}`;

/** Follows a download's redirect to the emulator and returns the bytes. */
async function download(guid: string, key: string, kind: 'download' | 'show' = 'download') {
  const response = await fetch(`${stack.url}/binaries/${guid}/${kind}`, {
    headers: { authorization: `Bearer ${key}` },
    redirect: 'manual',
  });
  if (response.status !== 302) return { status: response.status, body: await response.text() };
  const location = response.headers.get('location') ?? '';
  const file = await fetch(location);
  return {
    status: 302,
    location,
    disposition: file.headers.get('content-disposition'),
    contentType: file.headers.get('content-type'),
    bytes: Buffer.from(await file.arrayBuffer()),
  };
}

/** A new file uploaded in one request by `key`; its GUID. */
async function uploaded(key: string, bytes: Uint8Array = VECTOR, fileName = 'a.txt', id = table) {
  const answer = await uploadFile(uploadUrl(id), key, { fileName, bytes, contentType: 'text/plain' });
  expect(answer.body).toMatchObject({ StatusCode: 200, Message: expect.stringMatching(GUID) });
  return String(answer.body.Message);
}

/** A record of `table` with the file `guid` in AttachmentsA; its id. */
async function recordWith(key: string, guid: string, name = 'a.txt', extra: object = {}) {
  return createRecord(stack.url, key, table, {
    AttachmentsA: [{ Guid: guid, Name: name, Added: true }],
    ...extra,
  });
}

const readRecord = async (id: number, key = admin) => {
  const answer = await call(stack.url, `/api/items/${id}/get`, { ApiKey: key });
  return (answer.body.Response as { Data: Record<string, unknown>[] }).Data[0] as Record<string, unknown>;
};

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  outsider = await createUser(stack.url, admin, `outsider-${Date.now()}`);
  table = await createSite(stack.url, admin, 0, {
    Title: 'Files',
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},15`, `User,${reader.userId},1`],
  });
});
beforeEach(() => useSettings(undefined));
afterAll(() => stack.close());

describe('binary upload', () => {
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
          const { id, guid } = await attachedIn({}, [
            `User,${writer.userId},15`,
            `User,${outsider.userId},15`,
          ]);
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

    it('ignores a Content-Range header of the request itself', async () => {
      const form = multipartBody([{ fileName: 'r.txt', bytes: VECTOR }]);
      const answer = await postRaw(uploadUrl(), form.body, {
        authorization: `Bearer ${writer.apiKey}`,
        'content-type': form.contentType,
        'content-range': 'bytes 0-4/100',
      });
      expect(Number(answer.body.Id)).toBeGreaterThan(0);
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

  describe('storage in S3 multipart uploads', () => {
    const MiB = 1024 * 1024;

    it('stores a file of several parts, not a multiple of 5 MiB, byte-exact, with no non-final part under 5 MiB', async () => {
      const parts = watchParts();
      try {
        const bytes = patternBytes(13 * MiB + 321, 7);
        const answers = await uploadInChunks(uploadUrl(), writer.apiKey, 'big.bin', bytes, 4 * MiB, {
          FileHash: md5(bytes),
        });
        const guid = String(answers[0]?.body.Message);
        expect(answers.map((answer) => answer.body.Message)).toEqual(answers.map(() => guid));
        expect(answers.slice(0, -1).map((answer) => answer.body.Id)).toEqual([0, 0, 0]);
        expect(Number(answers.at(-1)?.body.Id)).toBeGreaterThan(0);

        const file = await download(guid, writer.apiKey);
        expect(file.bytes?.length).toBe(bytes.length);
        expect(file.bytes?.equals(bytes)).toBe(true);
        // 4 MiB held; 8 MiB → part 1; 4 MiB held; 4 MiB + 321 bytes → part 2, the last.
        expect(parts.sizes).toEqual([8 * MiB, 5 * MiB + 321]);
        for (const size of parts.sizes.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(5 * MiB);
      } finally {
        parts.stop();
      }
    });

    it('ends a small chunked file as one plain object', async () => {
      const parts = watchParts();
      try {
        const bytes = patternBytes(3 * MiB, 9);
        const answers = await uploadInChunks(uploadUrl(), writer.apiKey, 'small.bin', bytes, MiB);
        expect(parts.sizes).toEqual([]);
        expect((await download(String(answers[0]?.body.Message), writer.apiKey)).bytes?.equals(bytes)).toBe(
          true,
        );
      } finally {
        parts.stop();
      }
    });

    it('lets only one of concurrent copies of a chunk advance the upload', async () => {
      const bytes = patternBytes(6 * MiB + 5, 11);
      const name = 'copies.bin';
      const send = (from: number, length: number) =>
        uploadFile(uploadUrl(), writer.apiKey, {
          fileName: name,
          bytes: bytes.subarray(from, from + length),
          contentRange: rangeOf(from, length, bytes.length),
        });
      const first = await send(0, 2 * MiB);
      const guid = String(first.body.Message);
      // Copies of the second chunk (held bytes), then of the third (the first part), at once.
      for (const from of [2 * MiB, 4 * MiB]) {
        const copies = await Promise.all([send(from, 2 * MiB), send(from, 2 * MiB), send(from, 2 * MiB)]);
        for (const copy of copies) expect(copy.body).toEqual({ Id: 0, StatusCode: 200, Message: guid });
      }
      const last = await send(6 * MiB, 5);
      expect(last.body).toEqual({ Id: expect.any(Number), StatusCode: 200, Message: guid });
      expect((await download(guid, writer.apiKey)).bytes?.equals(bytes)).toBe(true);
    });

    it('writes DynamoDB at most twice for a chunk between the first and the last: claim, then advance', async () => {
      const bytes = patternBytes(6 * MiB + 5, 17);
      const send = (from: number, length: number) =>
        uploadFile(uploadUrl(), writer.apiKey, {
          fileName: 'writes.bin',
          bytes: bytes.subarray(from, from + length),
          contentRange: rangeOf(from, length, bytes.length),
        });
      const guid = String((await send(0, 2 * MiB)).body.Message);
      // The second chunk is held (under 5 MiB), the third makes the first part: both kinds of middle chunk.
      for (const from of [2 * MiB, 4 * MiB]) {
        const calls: string[] = [];
        const name = `count-${Math.random()}`;
        dynamo().middlewareStack.add(
          (next, context) => async (args) => {
            calls.push(String(context.commandName));
            return next(args);
          },
          { step: 'initialize', name },
        );
        try {
          expect((await send(from, 2 * MiB)).body.Message).toBe(guid);
        } finally {
          dynamo().middlewareStack.remove(name);
        }
        // Reads are allowed (authentication's cache may expire); writes are the claim and the advance.
        expect(calls.filter((call) => !/^(Get|BatchGet|Query)/.test(call))).toEqual([
          'UpdateItemCommand',
          'PutItemCommand',
        ]);
      }
      expect((await send(6 * MiB, 5)).body.Message).toBe(guid);
      expect((await download(guid, writer.apiKey)).bytes?.equals(bytes)).toBe(true);
    });

    it('gives a resent chunk that was already applied its answer again', async () => {
      const bytes = patternBytes(40, 13);
      const send = (from: number, length: number) =>
        uploadFile(uploadUrl(), writer.apiKey, {
          fileName: 'again.bin',
          bytes: bytes.subarray(from, from + length),
          contentRange: rangeOf(from, length, bytes.length),
        });
      const guid = String((await send(0, 20)).body.Message);
      expect((await send(20, 20)).body.Message).toBe(guid);
      const again = await send(20, 20);
      expect(again.body).toEqual({ Id: expect.any(Number), StatusCode: 200, Message: guid });
      // The same file, registered once.
      const id = again.body.Id;
      expect((await send(20, 20)).body.Id).toBe(id);
    });

    // 2 + 2 MiB held, then 2 MiB → part 1 (6 MiB), then 1 MiB → part 2 and completion.
    const chunks = [0, 2, 4, 6].map((at) => at * MiB);
    const faults: [
      string,
      's3' | 'dynamo',
      'before' | 'after',
      number,
      (command: string, input: Input) => boolean,
    ][] = [
      [
        'the held bytes’ PutObject fails',
        's3',
        'before',
        1,
        (c, i) => c === 'PutObjectCommand' && /uploads\//.test(String(i.Key)),
      ],
      [
        'the held bytes’ PutObject answer is lost',
        's3',
        'after',
        1,
        (c, i) => c === 'PutObjectCommand' && /uploads\//.test(String(i.Key)),
      ],
      [
        'the chunk’s claim fails',
        'dynamo',
        'before',
        2,
        (_c, i) => /#claim = :claim/.test(String(i.UpdateExpression)),
      ],
      ['reading the held bytes fails', 's3', 'before', 2, (c) => c === 'GetObjectCommand'],
      ['CreateMultipartUpload fails', 's3', 'before', 2, (c) => c === 'CreateMultipartUploadCommand'],
      ['UploadPart fails', 's3', 'before', 2, (c) => c === 'UploadPartCommand'],
      ['UploadPart’s answer is lost', 's3', 'after', 2, (c) => c === 'UploadPartCommand'],
      [
        'saving the state fails',
        'dynamo',
        'before',
        2,
        (_c, i) => /#claim.#md5 = :md5/.test(String(i.ConditionExpression)),
      ],
      [
        'the state is saved but the answer is lost',
        'dynamo',
        'after',
        2,
        (_c, i) => /#claim.#md5 = :md5/.test(String(i.ConditionExpression)),
      ],
      ['the last part’s UploadPart fails', 's3', 'before', 3, (c) => c === 'UploadPartCommand'],
      [
        'saving the last state is lost',
        'dynamo',
        'after',
        3,
        (_c, i) => /#claim.#md5 = :md5/.test(String(i.ConditionExpression)),
      ],
      ['CompleteMultipartUpload fails', 's3', 'before', 3, (c) => c === 'CompleteMultipartUploadCommand'],
      [
        'CompleteMultipartUpload’s answer is lost (recovered at once)',
        's3',
        'after',
        3,
        (c) => c === 'CompleteMultipartUploadCommand',
      ],
      ['storing the file’s row fails', 'dynamo', 'before', 3, (_c, i) => hasItemWith(i, 'BinaryId')],
      [
        'the file’s row is stored but the answer is lost',
        'dynamo',
        'after',
        3,
        (_c, i) => hasItemWith(i, 'BinaryId'),
      ],
      [
        'recording the answer is lost',
        'dynamo',
        'after',
        3,
        (_c, i) => /result/.test(JSON.stringify(i.Item ?? {})),
      ],
    ];

    it.each(faults)(
      'ends byte-exact when %s and the chunk is resent',
      async (_case, client, when, at, match) => {
        const bytes = patternBytes(7 * MiB, at * 17);
        const name = `fault-${_case}.bin`;
        const send = (index: number) => {
          const from = chunks[index] as number;
          const end = chunks[index + 1] ?? bytes.length;
          return uploadFile(
            uploadUrl(),
            writer.apiKey,
            {
              fileName: name,
              bytes: bytes.subarray(from, end),
              contentRange: rangeOf(from, end - from, bytes.length),
            },
            index === chunks.length - 1 ? { FileHash: md5(bytes) } : {},
          );
        };
        const answers = [];
        for (let index = 0; index < chunks.length; index++) {
          const fault = index === at ? injectFault(client, when, match) : undefined;
          try {
            const answer = await send(index);
            if (fault) {
              expect(fault.fired()).toBe(true);
              if (_case.includes('recovered at once')) {
                // The object is there at the upload's own key: the service sees the work was done.
                expect(answer.body).toMatchObject({ StatusCode: 200 });
                answers.push(answer);
                continue;
              }
              expect(answer.status).toBe(500);
              expect(answer.body).toEqual({
                Id: 0,
                StatusCode: 500,
                Message: 'An internal server error occurred.',
              });
            } else {
              answers.push(answer);
              continue;
            }
          } finally {
            fault?.stop();
          }
          answers.push(await send(index));
        }
        const guid = String(answers[0]?.body.Message);
        for (const answer of answers) expect(answer.body).toMatchObject({ StatusCode: 200, Message: guid });
        const binaryId = Number(answers.at(-1)?.body.Id);
        expect(binaryId).toBeGreaterThan(0);
        // Once more: the same registration, not a second file.
        expect((await send(chunks.length - 1)).body).toEqual({
          Id: binaryId,
          StatusCode: 200,
          Message: guid,
        });
        const file = await download(guid, writer.apiKey);
        expect(file.bytes?.equals(bytes)).toBe(true);
      },
    );
  });

  describe('attachments', () => {
    it('attaches an uploaded file on create: ReferenceId moves to the record, the column lists it', async () => {
      const guid = await uploaded(writer.apiKey, VECTOR, 'report.txt');
      const id = await recordWith(writer.apiKey, guid, 'Report.txt');
      expect((await readRecord(id)).AttachmentsHash).toEqual({
        AttachmentsA: [
          { Guid: guid, Name: 'Report.txt', Size: 15, Extension: '.txt', ContentType: 'text/plain' },
        ],
      });
      const json = await call(stack.url, `/api/binaries/${guid}/get`, { ApiKey: reader.apiKey });
      expect(json.body).toMatchObject({
        StatusCode: 200,
        Message: 'report.txt has been retrieved.',
        Response: { ReferenceId: id, Guid: guid, Base64: VECTOR.toString('base64'), Size: 15 },
      });
    });

    it('attaches on update, and a lower-case GUID as well', async () => {
      const id = await createRecord(stack.url, writer.apiKey, table, { Title: 'later' });
      const guid = await uploaded(writer.apiKey);
      const updated = await call(stack.url, `/api/items/${id}/update`, {
        ApiKey: writer.apiKey,
        AttachmentsHash: { AttachmentsB: [{ Guid: guid.toLowerCase(), Name: 'b.txt', Added: true }] },
      });
      expect(updated.body.StatusCode).toBe(200);
      expect((await readRecord(id)).AttachmentsHash).toMatchObject({ AttachmentsB: [{ Guid: guid }] });
    });

    it.each([
      ['a GUID nobody uploaded', async (): Promise<string> => 'ABCDEF0123456789ABCDEF0123456789', 404],
      ['another user’s upload', (): Promise<string> => uploaded(admin), 403],
      [
        'another tenant’s upload',
        (): Promise<string> => uploaded(accounts.other.apiKey, VECTOR, 'x.txt', 1),
        404,
      ],
      [
        'a file attached to another record',
        async (): Promise<string> => {
          const guid = await uploaded(writer.apiKey);
          await recordWith(writer.apiKey, guid);
          return guid;
        },
        403,
      ],
      ['text that is no GUID', async (): Promise<string> => 'not-a-guid', 400],
    ] as const)('refuses to attach %s (%i), storing nothing', async (_case, guidOf, statusCode) => {
      const guid = await guidOf();
      const answer = await call(stack.url, `/api/items/${table}/create`, {
        ApiKey: writer.apiKey,
        Title: 'refused',
        AttachmentsA: [{ Guid: guid, Name: 'a.txt', Added: true }],
      });
      expect(answer.body).toEqual({
        Id: table,
        StatusCode: statusCode,
        Message: expect.any(String),
        ...(statusCode === 400 && { Errors: expect.any(Array) }),
      });
    });

    it('keeps files that already belong to the record on a later update', async () => {
      const guid = await uploaded(writer.apiKey);
      const id = await recordWith(writer.apiKey, guid);
      // Another user with Update permission re-sends the list with a new name.
      const renamed = await call(stack.url, `/api/items/${id}/update`, {
        ApiKey: admin,
        AttachmentsA: [{ Guid: guid, Name: 'renamed.txt' }],
      });
      expect(renamed.body.StatusCode).toBe(200);
      expect((await readRecord(id)).AttachmentsHash).toMatchObject({
        AttachmentsA: [{ Guid: guid, Name: 'renamed.txt' }],
      });
    });

    it('deletes a file the record no longer lists, and the files of a deleted record', async () => {
      const kept = await uploaded(writer.apiKey);
      const dropped = await uploaded(writer.apiKey);
      const id = createRecord(stack.url, writer.apiKey, table, {
        AttachmentsA: [
          { Guid: kept, Name: 'kept.txt', Added: true },
          { Guid: dropped, Name: 'dropped.txt', Added: true },
        ],
      });
      const recordId = await id;
      await call(stack.url, `/api/items/${recordId}/update`, {
        ApiKey: writer.apiKey,
        AttachmentsA: [
          { Guid: kept, Name: 'kept.txt' },
          { Guid: dropped, Name: 'dropped.txt', Deleted: true },
        ],
      });
      expect((await download(dropped, admin)).status).toBe(404);
      expect((await download(kept, admin)).status).toBe(302);
      await call(stack.url, `/api/items/${recordId}/delete`, { ApiKey: writer.apiKey });
      expect((await download(kept, admin)).status).toBe(404);
    });

    it('adopts a GUID embedded in Body or a Description when uploaded for the site by the writer', async () => {
      const image = await uploaded(writer.apiKey, VECTOR, 'image.png');
      const inDescription = await uploaded(writer.apiKey, VECTOR, 'other.png');
      const foreign = await uploaded(admin, VECTOR, 'foreign.png');
      const id = await createRecord(stack.url, writer.apiKey, table, {
        Body: `![image](/binaries/${image.toLowerCase()}/show) and ![x](/binaries/${foreign.toLowerCase()}/show)`,
        DescriptionA: `see ${inDescription}`,
      });
      const json = async (guid: string, key: string) =>
        (await call(stack.url, `/api/binaries/${guid}/get`, { ApiKey: key })).body;
      expect(await json(image, reader.apiKey)).toMatchObject({ Response: { ReferenceId: id } });
      expect(await json(inDescription, reader.apiKey)).toMatchObject({ Response: { ReferenceId: id } });
      // Another user's upload stays where it was: uploaded for the site, not attached.
      expect(await json(foreign, admin)).toMatchObject({ Response: { ReferenceId: table } });
    });

    it.each([
      ['441 over LimitQuantity', { LimitQuantity: 1 }, 441, 'Up to 1 files can be attached.'],
      [
        '442 over LimitSize',
        { LimitSize: 0.00001 },
        442,
        'There is a file exceeding the max. size of 0.00001 MB.',
      ],
      ['443 over TotalLimitSize', { TotalLimitSize: 0.00002 }, 443, 'Up to 0.00002 MB can be attached.'],
    ])('answers %s of the column', async (_case, limits, statusCode, message) => {
      const site = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Results',
        Permissions: [`User,${writer.userId},15`],
        SiteSettings: { Columns: [{ ColumnName: 'AttachmentsA', ...limits }] },
      });
      const a = await uploaded(writer.apiKey, VECTOR, 'a.txt', site);
      const b = await uploaded(writer.apiKey, VECTOR, 'b.txt', site);
      const answer = await call(stack.url, `/api/items/${site}/create`, {
        ApiKey: writer.apiKey,
        AttachmentsA: [
          { Guid: a, Name: 'a.txt', Added: true },
          { Guid: b, Name: 'b.txt', Added: true },
        ],
      });
      expect(answer.body).toEqual({ Id: site, StatusCode: statusCode, Message: message });
    });
  });

  describe('uploads to an attached file’s GUID', () => {
    it('replaces the content in place with overwrite=true, keeping the GUID', async () => {
      const guid = await uploaded(writer.apiKey, VECTOR, 'v1.txt');
      const id = await recordWith(writer.apiKey, guid, 'doc.txt', { Title: 'Doc' });
      const v2 = Buffer.from('second version, longer');
      const answer = await uploadFile(guidUrl(guid, '?overwrite=true'), writer.apiKey, {
        fileName: 'v2.txt',
        bytes: v2,
        contentType: 'text/plain',
      });
      expect(answer.body).toEqual({ Id: id, StatusCode: 200, Message: '" Doc " has been updated.' });
      expect((await download(guid, reader.apiKey)).bytes?.toString()).toBe(v2.toString());
      expect((await readRecord(id)).AttachmentsHash).toEqual({
        AttachmentsA: [
          { Guid: guid, Name: 'v2.txt', Size: v2.length, Extension: '.txt', ContentType: 'text/plain' },
        ],
      });
    });

    it('answers chunks in progress with the record id and the path GUID, then the update', async () => {
      const guid = await uploaded(writer.apiKey);
      const id = await recordWith(writer.apiKey, guid, 'a.txt', { Title: 'Chunked' });
      const bytes = patternBytes(20, 5);
      const first = await uploadFile(guidUrl(guid, '?overwrite=1'), writer.apiKey, {
        fileName: 'c.bin',
        bytes: bytes.subarray(0, 10),
        contentRange: rangeOf(0, 10, 20),
      });
      expect(first.body).toEqual({ Id: id, StatusCode: 200, Message: guid });
      const last = await uploadFile(guidUrl(guid, '?overwrite=1'), writer.apiKey, {
        fileName: 'c.bin',
        bytes: bytes.subarray(10),
        contentRange: rangeOf(10, 10, 20),
      });
      expect(last.body).toEqual({ Id: id, StatusCode: 200, Message: '" Chunked " has been updated.' });
      expect((await download(guid, writer.apiKey)).bytes?.equals(bytes)).toBe(true);
    });

    it('adds the file under a new GUID to the same column without overwrite', async () => {
      const guid = await uploaded(writer.apiKey, VECTOR, 'one.txt');
      const id = await recordWith(writer.apiKey, guid, 'one.txt');
      const answer = await uploadFile(guidUrl(guid), writer.apiKey, {
        fileName: 'two.txt',
        bytes: Buffer.from('two'),
      });
      expect(answer.body.StatusCode).toBe(200);
      const list = (await readRecord(id)).AttachmentsHash as {
        AttachmentsA: { Guid: string; Name: string }[];
      };
      expect(list.AttachmentsA.map((entry) => entry.Name)).toEqual(['one.txt', 'two.txt']);
      expect(list.AttachmentsA[1]?.Guid).toMatch(GUID);
      expect(list.AttachmentsA[1]?.Guid).not.toBe(guid);
    });

    it('replaces the path GUID’s entry and same-named ones when the column has OverwriteSameFileName', async () => {
      const site = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Results',
        Permissions: [`User,${writer.userId},15`],
        SiteSettings: { Columns: [{ ColumnName: 'AttachmentsA', OverwriteSameFileName: true }] },
      });
      const guid = await uploaded(writer.apiKey, VECTOR, 'same.txt', site);
      const id = await createRecord(stack.url, writer.apiKey, site, {
        AttachmentsA: [{ Guid: guid, Name: 'same.txt', Added: true }],
      });
      const answer = await uploadFile(guidUrl(guid), writer.apiKey, {
        fileName: 'same.txt',
        bytes: Buffer.from('new'),
      });
      expect(answer.body.StatusCode).toBe(200);
      const list = (await readRecord(id)).AttachmentsHash as { AttachmentsA: { Guid: string }[] };
      expect(list.AttachmentsA).toHaveLength(1);
      expect(list.AttachmentsA[0]?.Guid).not.toBe(guid);
      expect((await download(guid, admin)).status).toBe(404);
    });

    it('answers 405 on a record locked by another user, 403 without Update, 404 without Read', async () => {
      const guid = await uploaded(writer.apiKey);
      const id = await recordWith(writer.apiKey, guid, 'a.txt', { Locked: true });
      const file = { fileName: 'x.txt', bytes: Buffer.from('x') };
      const locked = await uploadFile(guidUrl(guid, '?overwrite=true'), admin, file);
      // A tenant manager may change a locked record, as with update; another writer may not.
      expect(locked.body.StatusCode).toBe(200);
      const other = await createUser(stack.url, admin, `second-writer-${Date.now()}`);
      await call(stack.url, `/api/items/${table}/updatesite`, {
        ApiKey: admin,
        Permissions: [`User,${writer.userId},15`, `User,${reader.userId},1`, `User,${other.userId},15`],
      });
      const refused = await uploadFile(guidUrl(guid, '?overwrite=true'), other.apiKey, file);
      expect(refused.status).toBe(200);
      expect(refused.body).toEqual({
        Id: 0,
        StatusCode: 405,
        Message: expect.stringMatching(new RegExp(`^Record ${id} has been locked by .+ at .+\\.$`)),
      });
      // The lock comes first, as in the reference's update: unlocked, the reader meets the permission.
      await call(stack.url, `/api/items/${id}/update`, { ApiKey: admin, Locked: false });
      expect((await uploadFile(guidUrl(guid), reader.apiKey, file)).body.StatusCode).toBe(403);
      expect((await uploadFile(guidUrl(guid), outsider.apiKey, file)).body.StatusCode).toBe(404);
    });

    it('answers 404 for a GUID that is attached nowhere or unknown', async () => {
      const loose = await uploaded(writer.apiKey);
      const file = { fileName: 'x.txt', bytes: Buffer.from('x') };
      expect((await uploadFile(guidUrl(loose), writer.apiKey, file)).body.StatusCode).toBe(404);
      expect((await uploadFile(guidUrl('0'.repeat(32)), writer.apiKey, file)).body.StatusCode).toBe(404);
      expect((await uploadFile(guidUrl('nothex'), writer.apiKey, file)).body.StatusCode).toBe(404);
    });

    it('answers 429 over the site’s daily API limit', async () => {
      const guid = await uploaded(writer.apiKey);
      await recordWith(writer.apiKey, guid);
      useSettings(loadSettings({ ...process.env, KIROKU_PARAM_Api_LimitPerSite: '1' }));
      const site = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Results',
        Permissions: [`User,${writer.userId},15`],
      });
      const own = await uploaded(writer.apiKey, VECTOR, 'a.txt', site);
      const id = await createRecord(stack.url, writer.apiKey, site, {
        AttachmentsA: [{ Guid: own, Name: 'a.txt', Added: true }],
      });
      const file = { fileName: 'x.txt', bytes: Buffer.from('x') };
      const over = await uploadFile(guidUrl(own, '?overwrite=true'), writer.apiKey, file);
      expect(over.status).toBe(200);
      expect(over.body).toEqual({
        Id: 0,
        StatusCode: 429,
        Message: `The API limit (1 Requests/Day) that can be used on the site with ID ${site} has been exceeded.`,
      });
      expect(id).toBeGreaterThan(0);
    });
  });

  describe('S3 objects nothing points at (the Binaries stream)', () => {
    const keysUnder = async (prefix: string) => {
      const listed = await s3().send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((object) => String(object.Key));
    };
    const tenantFiles = (guid: string) => `files/1/${guid}/`;

    it('removes the object of a deleted record’s file, and the old object of an overwrite, within 2 s', async () => {
      const kept = await uploaded(writer.apiKey, VECTOR, 'kept.txt');
      const id = await recordWith(writer.apiKey, kept);
      const [first] = await keysUnder(tenantFiles(kept));
      expect(first).toBeDefined();
      await uploadFile(guidUrl(kept, '?overwrite=true'), writer.apiKey, {
        fileName: 'v2.txt',
        bytes: Buffer.from('v2'),
      });
      await vi.waitFor(async () => expect(await keysUnder(tenantFiles(kept))).not.toContain(first), {
        timeout: 2000,
        interval: 100,
      });
      expect(await keysUnder(tenantFiles(kept))).toHaveLength(1);
      // Through two streams: the record's REMOVE deletes the file's row, whose REMOVE deletes the object.
      await call(stack.url, `/api/items/${id}/delete`, { ApiKey: writer.apiKey });
      await vi.waitFor(async () => expect(await keysUnder(tenantFiles(kept))).toEqual([]), {
        timeout: 4000,
        interval: 100,
      });
    });

    it('removes the files of a deleted site’s records, listed or embedded', async () => {
      const site = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Wikis',
        Permissions: [`User,${writer.userId},15`],
      });
      const listed = await uploaded(writer.apiKey, VECTOR, 'listed.txt', site);
      const embedded = await uploaded(writer.apiKey, VECTOR, 'embedded.png', site);
      await createRecord(stack.url, writer.apiKey, site, {
        AttachmentsA: [{ Guid: listed, Name: 'listed.txt', Added: true }],
        Body: `![image](/binaries/${embedded.toLowerCase()}/show)`,
      });
      expect(await keysUnder(tenantFiles(embedded))).toHaveLength(1);
      await call(stack.url, `/api/items/${site}/deletesite`, { ApiKey: admin });
      for (const guid of [listed, embedded]) {
        await vi.waitFor(async () => expect(await keysUnder(tenantFiles(guid))).toEqual([]), {
          timeout: 4000,
          interval: 100,
        });
      }
      const json = await call(stack.url, `/api/binaries/${listed}/get`, { ApiKey: writer.apiKey });
      expect(json.body.StatusCode).toBe(404);
    });

    it('removes the held bytes of an upload that a new first chunk replaced', async () => {
      const bytes = patternBytes(30, 21);
      const chunk = (from: number, length: number) =>
        uploadFile(uploadUrl(), writer.apiKey, {
          fileName: 'restarted.bin',
          bytes: bytes.subarray(from, from + length),
          contentRange: rangeOf(from, length, bytes.length),
        });
      const abandoned = String((await chunk(0, 10)).body.Message);
      expect(await keysUnder(`uploads/1/${abandoned}/`)).toHaveLength(1);
      const restarted = String((await chunk(0, 10)).body.Message);
      expect(restarted).not.toBe(abandoned);
      await vi.waitFor(async () => expect(await keysUnder(`uploads/1/${abandoned}/`)).toEqual([]), {
        timeout: 2000,
        interval: 100,
      });
      expect(await keysUnder(`uploads/1/${restarted}/`)).toHaveLength(1);
    });
  });

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
});

type Input = Record<string, unknown>;

function hasItemWith(input: Input, attribute: string): boolean {
  const item = input.Item as Record<string, unknown> | undefined;
  return item !== undefined && attribute in item;
}

/** Records the size of every UploadPart the service sends to S3 (observing the real client, not mocking it). */
function watchParts() {
  const sizes: number[] = [];
  const name = `watch-parts-${Math.random()}`;
  s3().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'UploadPartCommand') {
        const input = args.input as { Body: Uint8Array; ContentLength?: number };
        sizes.push(input.ContentLength ?? input.Body.length);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { sizes, stop: () => s3().middlewareStack.remove(name) };
}

/**
 * Makes the next call that `match`es fail, before it reaches the emulator or after it did its work (the
 * answer lost): a fault injected into otherwise real code.
 */
function injectFault(
  which: 's3' | 'dynamo',
  when: 'before' | 'after',
  match: (command: string, input: Input) => boolean,
) {
  // One middleware type for both clients: the stacks differ only in their command types.
  const stack = (which === 's3' ? s3() : dynamo()).middlewareStack as unknown as ReturnType<
    typeof s3
  >['middlewareStack'];
  const name = `fault-${Math.random()}`;
  let fired = false;
  stack.add(
    (next, context) => async (args) => {
      if (fired || !match(String(context.commandName), args.input as Input)) return next(args);
      fired = true;
      if (when === 'before') throw new Error('injected fault before the call');
      await next(args);
      throw new Error('injected fault: the answer was lost');
    },
    { step: 'initialize', name },
  );
  return { fired: () => fired, stop: () => stack.remove(name) };
}
