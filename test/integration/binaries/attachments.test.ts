import { describe, expect, it } from 'vitest';
import {
  accounts,
  admin,
  download,
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

  it.each([
    ['an inline file', ['inline']],
    ['an uploaded file (Added: true)', ['uploaded']],
    ['an inline file and an uploaded one', ['inline', 'uploaded']],
  ] as const)('keeps the file already there when an update adds %s, bytes intact', async (_case, kinds) => {
    const first = Buffer.from('the first file');
    const existing = await uploaded(writer.apiKey, first, 'first.txt');
    const id = await recordWith(writer.apiKey, existing, 'first.txt');
    const bytes = { inline: Buffer.from('added inline'), uploaded: Buffer.from('added by GUID') };
    const added = { uploaded: await uploaded(writer.apiKey, bytes.uploaded, 'second.txt') };
    const entries = {
      inline: { Name: 'inline.txt', Base64: bytes.inline.toString('base64') },
      uploaded: { Guid: added.uploaded, Name: 'second.txt', Added: true },
    };
    const updated = await call(stack.url, `/api/items/${id}/update`, {
      ApiKey: writer.apiKey,
      AttachmentsHash: { AttachmentsA: kinds.map((kind) => entries[kind]) },
    });
    expect(updated.body.StatusCode, updated.text).toBe(200);
    const list = (await readRecord(id)).AttachmentsHash as { AttachmentsA: { Guid: string; Name: string }[] };
    const names = { inline: 'inline.txt', uploaded: 'second.txt' };
    // The files the write names first, then the one it does not name, as the reference merges them.
    expect(list.AttachmentsA.map((entry) => entry.Name)).toEqual([
      ...kinds.map((k) => names[k]),
      'first.txt',
    ]);
    for (const entry of list.AttachmentsA) {
      const kind = kinds.find((k) => names[k] === entry.Name);
      expect((await download(entry.Guid, writer.apiKey)).bytes).toEqual(kind ? bytes[kind] : first);
    }
  });

  it.each([
    ['{Guid, Name}', {}],
    ['{Guid, Name} with other facts', { Size: 1, ContentType: 'application/x-evil', Extension: '.exe' }],
    ['{Guid, Name, Added: true}', { Added: true }],
  ])('keeps every stored fact of a file echoed back as %s', async (_case, echoed) => {
    const guid = await uploaded(writer.apiKey, VECTOR, 'report.txt');
    const id = await recordWith(writer.apiKey, guid, 'report.txt');
    const stored = ((await readRecord(id)).AttachmentsHash as { AttachmentsA: object[] }).AttachmentsA;
    expect(stored).toEqual([
      { Guid: guid, Name: 'report.txt', Size: 15, Extension: '.txt', ContentType: 'text/plain' },
    ]);
    const updated = await call(stack.url, `/api/items/${id}/update`, {
      ApiKey: writer.apiKey,
      AttachmentsHash: { AttachmentsA: [{ Guid: guid, Name: 'report.txt', ...echoed }] },
    });
    expect(updated.body.StatusCode, updated.text).toBe(200);
    expect((await readRecord(id)).AttachmentsHash).toEqual({ AttachmentsA: stored });
  });

  it('replaces a kept file of the same name in a column with OverwriteSameFileName', async () => {
    const site = await createSite(stack.url, admin, 0, {
      ReferenceType: 'Results',
      Permissions: [`User,${writer.userId},15`],
      SiteSettings: { Columns: [{ ColumnName: 'AttachmentsA', OverwriteSameFileName: true }] },
    });
    const inline = (name: string, text: string) => ({
      Name: name,
      Base64: Buffer.from(text).toString('base64'),
    });
    const id = await createRecord(stack.url, writer.apiKey, site, {
      AttachmentsA: [inline('same.txt', 'old'), inline('other.txt', 'other')],
    });
    type Entry = { Guid: string; Name: string };
    const [old] = ((await readRecord(id)).AttachmentsHash as { AttachmentsA: Entry[] }).AttachmentsA;
    await call(stack.url, `/api/items/${id}/update`, {
      ApiKey: writer.apiKey,
      AttachmentsA: [inline('same.txt', 'new')],
    });
    const list = ((await readRecord(id)).AttachmentsHash as { AttachmentsA: Entry[] }).AttachmentsA;
    expect(list.map((entry) => entry.Name)).toEqual(['same.txt', 'other.txt']);
    expect((await download(list[0]?.Guid ?? '', writer.apiKey)).bytes?.toString()).toBe('new');
    expect((await download(old?.Guid ?? '', admin)).status).toBe(404);
  });

  it('deletes a file named with Deleted: true, and the files of a deleted record', async () => {
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
