import { describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../../lib/config/settings';
import {
  admin,
  download,
  readRecord,
  stack,
  table,
  useBinariesStack,
  writer,
} from '../../fixtures/binaries-suite';
import { call } from '../../fixtures/client';
import { createRecord } from '../../fixtures/items';

useBinariesStack();

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** The start of a JFIF file: `show` serves an image inline only when its bytes and its name agree. */
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
]);
const image = (extra: object = {}) => ({ Base64: PNG.toString('base64'), ...extra });
const SHOW = /!\[([^\]]*)\]\(\/binaries\/([0-9a-f]{32})\/show\)/;

/** The GUID of the image referenced in `text` (upper case, as the API names files). */
function guidIn(text: unknown): string {
  const match = SHOW.exec(String(text));
  expect(match, String(text)).not.toBeNull();
  return (match?.[2] ?? '').toUpperCase();
}

describe('ImageHash', () => {
  it('stores the image as a file of the record and puts its Markdown reference into Body', async () => {
    const created = await call(stack.url, `/api/items/${table}/create`, {
      ApiKey: writer.apiKey,
      Title: 'With image',
      Body: 'before',
      ImageHash: { Body: image({ Alt: 'shot', Extension: '.png' }) },
    });
    expect(created.body.StatusCode, created.text).toBe(200);
    const record = await readRecord(Number(created.body.Id));
    expect(record.Body).toMatch(/^before!\[shot\]\(\/binaries\/[0-9a-f]{32}\/show\)$/);
    const shown = await download(guidIn(record.Body), writer.apiKey, 'show');
    expect(shown).toMatchObject({ status: 302, contentType: 'image/png', bytes: PNG });
    const json = await call(stack.url, `/api/binaries/${guidIn(record.Body)}/get`, { ApiKey: admin });
    expect(json.body).toMatchObject({
      Response: { ReferenceId: Number(created.body.Id), FileName: 'image.png', ContentType: 'image/png' },
    });
  });

  it.each([
    ['at the end, by default', {}, 'abc![image](<show>)'],
    [
      'at a Position, between newlines',
      { Position: 1, HeadNewLine: true, EndNewLine: 1 },
      'a\n![image](<show>)\nbc',
    ],
    ['at the end for Position -1', { Position: -1, Alt: 'x' }, 'abc![x](<show>)'],
    ['at the end for a Position past it', { Position: 99 }, 'abc![image](<show>)'],
  ])('inserts into a Description column %s', async (_case, options, expected) => {
    const id = await createRecord(stack.url, writer.apiKey, table, {
      DescriptionHash: { DescriptionA: 'abc' },
      ImageHash: { descriptiona: image(options) },
    });
    const text = String(((await readRecord(id)).DescriptionHash as Record<string, string>).DescriptionA);
    const guid = guidIn(text).toLowerCase();
    expect(text).toBe(expected.replace('<show>', `/binaries/${guid}/show`));
  });

  it('adds the image to the stored text on an update that sends only the image, and to the new comment', async () => {
    const id = await createRecord(stack.url, writer.apiKey, table, { Body: 'kept' });
    const updated = await call(stack.url, `/api/items/${id}/update`, {
      ApiKey: writer.apiKey,
      Comments: 'see:',
      ImageHash: { Body: image({ Extension: 'jpeg', Base64: JPEG.toString('base64') }), Comments: image() },
    });
    expect(updated.body.StatusCode, updated.text).toBe(200);
    const record = await readRecord(id);
    expect(record.Body).toMatch(/^kept!\[image\]/);
    const comments = JSON.parse(String(record.Comments)) as { Body: string }[];
    expect(comments[0]?.Body).toMatch(/^see:!\[image\]/);
    const shown = await download(guidIn(record.Body), writer.apiKey, 'show');
    expect(shown).toMatchObject({ status: 302, contentType: 'image/jpeg', bytes: JPEG });
    expect((await download(guidIn(comments[0]?.Body), writer.apiKey, 'show')).bytes).toEqual(PNG);
  });

  it.each([
    ['bad Base64', { Body: image({ Base64: '***' }) }, 'ImageHash.Body.Base64'],
    ['empty Base64', { Body: image({ Base64: '' }) }, 'ImageHash.Body.Base64'],
    ['an extension that is no image', { Body: image({ Extension: '.exe' }) }, 'ImageHash.Body.Extension'],
    ['a column that takes no image', { ClassA: image() }, 'ImageHash.ClassA'],
  ])('answers 400 for %s, naming it, and stores nothing', async (_case, hash, named) => {
    const answer = await call(stack.url, `/api/items/${table}/create`, {
      ApiKey: writer.apiKey,
      Title: 'refused image',
      ImageHash: hash,
    });
    expect(answer.body).toMatchObject({ StatusCode: 400, Message: expect.stringContaining(named) });
    const page = await call(stack.url, `/api/items/${table}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { Title: 'refused image' } },
    });
    expect(page.body.Response).toMatchObject({ TotalCount: 0 });
  });

  it('answers 442 for an image over BinaryStorage.MaxSize', async () => {
    useSettings(loadSettings({ ...process.env, KIROKU_PARAM_BinaryStorage_MaxSize: '0.00001' }));
    const answer = await call(stack.url, `/api/items/${table}/create`, {
      ApiKey: writer.apiKey,
      ImageHash: { Body: image() },
    });
    expect(answer.body).toMatchObject({ StatusCode: 442 });
  });
});
