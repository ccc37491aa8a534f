import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/errors';
import { parseContentRange } from '../../../lib/files/content-range';
import { continueMd5, MD5_STATE_VERSION, md5Digest } from '../../../lib/files/md5-state';
import { parseUploadForm } from '../../../lib/files/multipart-form';
import { queryBool, queryData } from '../../../lib/query-strings';
import { multipartBody, patternBytes } from '../../fixtures/binaries';

describe('binaries', () => {
  describe('parseContentRange', () => {
    it.each([
      [undefined, undefined],
      ['', undefined],
      ['bytes */*', undefined],
      ['bytes 0-99/1000', { from: 0, to: 99, total: 1000 }],
      // The reference reads the first three digit runs and does not check the unit.
      ['items 5-9/10', { from: 5, to: 9, total: 10 }],
      ['bytes 0-0/1 extra 7', { from: 0, to: 0, total: 1 }],
    ])('reads %j as %j', (header, range) => {
      expect(parseContentRange(header)).toEqual(range);
    });

    it.each(['bytes 0-99/*', 'bytes 10-5/20', 'bytes 0-20/20', 'bytes 0-99999999999999999/1'])(
      'refuses %j with 400',
      (header) => {
        expect(() => parseContentRange(header)).toThrow(expect.objectContaining({ statusCode: 400 }));
      },
    );
  });

  describe('md5 state', () => {
    it('pins the hash-wasm version its saved states are bound to', () => {
      const installed = JSON.parse(readFileSync('node_modules/hash-wasm/package.json', 'utf8')).version;
      expect(MD5_STATE_VERSION).toBe(`hash-wasm@${installed}`);
      const pinned = JSON.parse(readFileSync('package.json', 'utf8')).dependencies['hash-wasm'];
      expect(pinned).toBe(installed);
    });

    it('hashes a file chunk by chunk through saved states, as node:crypto does at once', async () => {
      const bytes = patternBytes(1_000_003, 2);
      let state: Awaited<ReturnType<typeof continueMd5>> | undefined;
      let at = 0;
      // Around the 64-byte block edges, then the rest.
      for (const size of [1, 63, 64, 65, 4096, 333_333, bytes.length]) {
        state = await continueMd5(state, bytes.subarray(at, at + size));
        at += size;
      }
      if (!state) throw new Error('no state');
      expect(await md5Digest(state)).toBe(createHash('md5').update(bytes).digest('hex'));
    });

    it('refuses a state saved by another version', async () => {
      const state = await continueMd5(undefined, Buffer.from('x'));
      await expect(md5Digest({ ...state, version: 'hash-wasm@0.0.1' })).rejects.toThrow(/cannot be resumed/);
    });
  });

  describe('parseUploadForm', () => {
    it.each(['plain.bin', 'Bob’s report.txt', '報告書 2026.pdf'])(
      'reads the file name %j as sent',
      (name) => {
        const form = multipartBody([{ fileName: name, bytes: Buffer.from('abc') }], { FileHash: 'f' });
        const parsed = parseUploadForm(form.body, form.contentType);
        expect(parsed.file).toMatchObject({ name, bytes: Buffer.from('abc') });
        expect(parsed.fields).toEqual({ FileHash: 'f' });
      },
    );

    it('takes a part with an empty filename (a file input left empty) for no file', () => {
      const form = multipartBody([{ fileName: '', bytes: Buffer.alloc(0) }]);
      expect(parseUploadForm(form.body, form.contentType).file).toBeUndefined();
    });

    it('takes filename* over filename, and drops a client path', () => {
      const body = Buffer.from(
        '--b\r\nContent-Disposition: form-data; name="f"; filename="C:\\\\tmp\\\\x.txt"; ' +
          "filename*=UTF-8''%E5%A0%B1.pdf\r\n\r\nxyz\r\n--b--\r\n",
      );
      expect(parseUploadForm(body, 'multipart/form-data; boundary=b').file?.name).toBe('報.pdf');
      const path = multipartBody([{ fileName: 'C:\\\\tmp\\\\x.txt', bytes: Buffer.from('x') }]);
      expect(parseUploadForm(path.body, path.contentType).file?.name).toBe('x.txt');
    });

    it.each([
      ['the request’s, when the part has none', undefined, 'bytes 0-2/9'],
      ['the part’s own, when it has one', 'bytes 3-5/9', 'bytes 3-5/9'],
    ])('takes as the Content-Range %s', (_case, part, expected) => {
      const form = multipartBody([{ fileName: 'c.bin', bytes: Buffer.from('abc'), contentRange: part }]);
      expect(parseUploadForm(form.body, form.contentType, 'bytes 0-2/9').file?.contentRange).toBe(expected);
    });

    it('keeps bytes that look like a boundary or a header inside the file', () => {
      const tricky = Buffer.from('\r\n--not-it\r\nContent-Range: bytes 0-1/2\r\n\r\n\u0000\u00ff');
      const form = multipartBody([{ fileName: 't.bin', bytes: tricky, contentRange: 'bytes 0-9/10' }]);
      const file = parseUploadForm(form.body, form.contentType).file;
      expect(file?.bytes.equals(tricky)).toBe(true);
      expect(file?.contentRange).toBe('bytes 0-9/10');
    });

    it.each([
      ['not multipart', 'application/json', 404],
      ['multipart without a boundary', 'multipart/form-data', 404],
      ['a body that never ends', 'multipart/form-data; boundary=zzz', 500],
    ])('answers %s with HTTP %i', (_case, contentType, status) => {
      const error = (() => {
        try {
          parseUploadForm(
            Buffer.from('--zzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'),
            contentType,
          );
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ statusCode: status, httpStatus: status });
    });
  });

  describe('query strings', () => {
    it.each([
      ['overwrite=true', true],
      ['OVERWRITE=On', true],
      ['overwrite=-1', true],
      // An exact key given again keeps its last value (CONTRACT section 8).
      ['overwrite=1&overwrite=0', false],
      ['overwrite=0&overwrite=1', true],
      ['overwrite=yes', false],
      ['overwrite', false],
      ['', false],
    ])('reads %j as overwrite %s', (query, value) => {
      expect(queryBool(query, 'overwrite')).toBe(value);
    });

    it('decodes keys and values, + as a space, and keeps the part after a second =', () => {
      expect(queryData('na%C3%AFve=a+b%20c', 'NAÏVE')).toBe('a b c');
      expect(queryData('a=b=c', 'a')).toBe('b');
    });
  });
});
