import { describe, expect, it } from 'vitest';
import { patternBytes, uploadFile } from '../../fixtures/binaries';
import {
  accounts,
  download,
  outsider,
  reader,
  recordWith,
  stack,
  uploaded,
  uploadUrl,
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

  it('shows an image inline for images embedded in text, with a login cookie', async () => {
    const guid = await uploadedAs('pic.png', 'image/png', PNG);
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
    expect(file.headers.get('content-type')).toBe('image/png');
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

/** A 1×1 PNG, as a browser would draw it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const HTML = Buffer.from('<html><body><script>alert(document.domain)</script></body></html>');
const XHTML = Buffer.from(
  '<html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(document.domain)</script></body></html>',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
);

/** A new file uploaded by the writer with the type its part declares; its GUID. */
async function uploadedAs(fileName: string, contentType: string, bytes: Buffer): Promise<string> {
  const answer = await uploadFile(uploadUrl(), writer.apiKey, { fileName, bytes, contentType });
  expect(answer.body).toMatchObject({ StatusCode: 200 });
  return String(answer.body.Message);
}

// Issue 23 item 6: the bucket serves on a host the browser trusts, so an upload must never come back as
// active content. The final answer (S3's, after the redirect) is what a browser acts on.
describe('the type and disposition a file is served with', () => {
  const opaque = (name: string) => ({
    contentType: 'application/octet-stream',
    disposition: `attachment; filename*=UTF-8''${name}`,
  });
  it.each([
    ['an HTML page', 'page.html', 'text/html', HTML, opaque('page.html')],
    ['HTML named .png and declared text/html', 'photo.png', 'text/html', HTML, opaque('photo.png')],
    ['HTML named .png and declared image/png', 'fake.png', 'image/png', HTML, opaque('fake.png')],
    ['an XHTML page', 'x.xhtml', 'application/xhtml+xml', XHTML, opaque('x.xhtml')],
    ['an SVG with a script', 'logo.svg', 'image/svg+xml', SVG, opaque('logo.svg')],
    ['a text file', 'notes.txt', 'text/plain', HTML, opaque('notes.txt')],
    [
      'a real PNG',
      'real.png',
      'image/png',
      PNG,
      { contentType: 'image/png', disposition: "inline; filename*=UTF-8''real.png" },
    ],
    [
      'a real PNG declared text/html',
      'real2.png',
      'text/html',
      PNG,
      { contentType: 'image/png', disposition: "inline; filename*=UTF-8''real2.png" },
    ],
  ])(
    'show never serves %s (%s, declared %s) as active content',
    async (_case, name, declared, bytes, served) => {
      const guid = await uploadedAs(name, declared, bytes);
      const file = await download(guid, writer.apiKey, 'show');
      expect(file).toMatchObject({ status: 302, nosniff: 'nosniff', ...served });
      expect(file.bytes?.equals(bytes)).toBe(true);
    },
  );

  it.each([
    ['an HTML page', 'page.html', 'text/html', 'application/octet-stream'],
    ['an SVG', 'logo.svg', 'image/svg+xml', 'application/octet-stream'],
    ['an XHTML page', 'x.xhtml', 'application/xhtml+xml', 'application/octet-stream'],
    ['JavaScript', 'app.js', 'text/javascript', 'application/octet-stream'],
    ['a PDF', 'report.pdf', 'application/pdf', 'application/pdf'],
    ['a text file', 'notes.txt', 'text/plain', 'text/plain'],
  ])(
    'download serves %s (%s, declared %s) as an attachment of type %s',
    async (_case, name, declared, served) => {
      const guid = await uploadedAs(name, declared, HTML);
      const file = await download(guid, writer.apiKey);
      expect(file).toMatchObject({
        status: 302,
        nosniff: 'nosniff',
        contentType: served,
        disposition: `attachment; filename*=UTF-8''${name}`,
      });
    },
  );
});
