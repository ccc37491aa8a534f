import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it, vi } from 'vitest';
import { s3 } from '../../../lib/storage/s3';
import { patternBytes, rangeOf, uploadFile } from '../../fixtures/binaries';
import {
  admin,
  guidUrl,
  readRecord,
  recordWith,
  stack,
  table,
  uploaded,
  uploadUrl,
  useBinariesStack,
  VECTOR,
  writer,
} from '../../fixtures/binaries-suite';
import { call } from '../../fixtures/client';
import { createRecord, createSite } from '../../fixtures/items';

useBinariesStack();

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
    // A delete keeps the file with the record in the recycle bin; a purge takes it, through two streams:
    // the bin entry's REMOVE deletes the file's row (functions/recycle-bin.ts), whose REMOVE the object.
    await call(stack.url, `/api/items/${id}/delete`, { ApiKey: writer.apiKey });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await keysUnder(tenantFiles(kept))).toHaveLength(1);
    const purge = await call(stack.url, `/api/items/${table}/bulkdelete`, {
      ApiKey: admin,
      Selected: [id],
      PhysicalDelete: true,
    });
    expect(purge.body.StatusCode, purge.text).toBe(200);
    await vi.waitFor(async () => expect(await keysUnder(tenantFiles(kept))).toEqual([]), {
      timeout: 4000,
      interval: 100,
    });
  });

  it('keeps the files of a deleted site’s records, listed or embedded, for the site’s restore', async () => {
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
    // Readable by nobody while the site is in the recycle bin, and kept (expiry takes them: recycle-bin.test.ts).
    const json = await call(stack.url, `/api/binaries/${listed}/get`, { ApiKey: writer.apiKey });
    expect(json.body.StatusCode).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const guid of [listed, embedded]) expect(await keysUnder(tenantFiles(guid))).toHaveLength(1);
    expect((await call(stack.url, `/api/items/${site}/restore`, { ApiKey: admin })).body.StatusCode).toBe(
      200,
    );
    expect(
      (await call(stack.url, `/api/binaries/${listed}/get`, { ApiKey: writer.apiKey })).body.StatusCode,
    ).toBe(200);
  });

  describe('inline Base64 attachments whose record write fails', () => {
    const inline = (name: string, text = name) => ({
      Name: name,
      Base64: Buffer.from(text).toString('base64'),
    });
    const settled = async (before: string[]) =>
      vi.waitFor(async () => expect((await keysUnder('files/1/')).sort()).toEqual(before), {
        timeout: 4000,
        interval: 100,
      });

    it('a create refused after its files were stored (over the column limit, 441) leaves no bytes', async () => {
      const site = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Results',
        SiteSettings: { Columns: [{ ColumnName: 'AttachmentsA', LimitQuantity: 1 }] },
      });
      const before = (await keysUnder('files/1/')).sort();
      const refused = await call(stack.url, `/api/items/${site}/create`, {
        ApiKey: admin,
        AttachmentsHash: { AttachmentsA: [inline('one.txt'), inline('two.txt')] },
      });
      expect(refused.body.StatusCode).toBe(441);
      await settled(before);
    });

    it('an update whose second file is not base64 leaves no bytes of the first, nor changes the record', async () => {
      const id = await createRecord(stack.url, admin, table, { Title: 'inline' });
      const before = (await keysUnder('files/1/')).sort();
      const refused = await call(stack.url, `/api/items/${id}/update`, {
        ApiKey: admin,
        AttachmentsHash: { AttachmentsA: [inline('good.txt'), { Name: 'bad.txt', Base64: '%%%' }] },
      });
      expect(refused.body.StatusCode).toBe(400);
      await settled(before);
      expect((await readRecord(id)).AttachmentsHash).toBeUndefined();
    });

    it('a write that succeeds keeps its bytes once the stream has seen it', async () => {
      const id = await createRecord(stack.url, admin, table, {
        AttachmentsHash: { AttachmentsA: [inline('kept.txt', 'kept bytes')] },
      });
      const [entry] = ((await readRecord(id)).AttachmentsHash as { AttachmentsA: { Guid: string }[] })
        .AttachmentsA;
      // Long enough for the stream to have handled the marker's commit.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await keysUnder(tenantFiles(String(entry?.Guid)))).toHaveLength(1);
      const json = await call(stack.url, `/api/binaries/${entry?.Guid}/get`, { ApiKey: admin });
      expect((json.body.Response as { Base64: string }).Base64).toBe(
        Buffer.from('kept bytes').toString('base64'),
      );
    });
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
