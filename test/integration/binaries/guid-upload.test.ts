import { describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../../lib/config/settings';
import { createUser } from '../../fixtures/accounts';
import { patternBytes, rangeOf, uploadFile } from '../../fixtures/binaries';
import {
  admin,
  download,
  GUID,
  guidUrl,
  outsider,
  reader,
  readRecord,
  recordWith,
  stack,
  table,
  uploaded,
  useBinariesStack,
  VECTOR,
  writer,
} from '../../fixtures/binaries-suite';
import { call } from '../../fixtures/client';
import { createRecord, createSite } from '../../fixtures/items';

useBinariesStack();

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
