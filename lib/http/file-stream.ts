import type { Principal } from '../accounts/principal';
import * as objects from '../files/object-store';
import { servedType } from '../files/served-type';
import { readableFile } from '../items/file-access';
import type { ApiResult } from './event';

/**
 * `POST /api/binaries/{guid}/getstream` (reference note §4): the file's bytes as an attachment, to whoever
 * may read it as `/get` decides (anyone else, and an unknown GUID, get the 404 envelope, where the
 * reference answers a bare 500). A Lambda answer carries 6 MB, and binary bytes travel base64-encoded
 * (4/3 of their size), so a file over 4 MiB (5.6 MB encoded) is a redirect to a presigned URL instead, as
 * `/binaries/{guid}/download` answers.
 */

export const MAX_STREAM_BYTES = 4 * 1024 * 1024;

export async function fileStream(principal: Principal, guid: string): Promise<ApiResult> {
  const binary = await readableFile(principal, guid);
  const served = servedType(binary, 'download');
  const common = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (binary.size > MAX_STREAM_BYTES) {
    const location = await objects.presignedGet(binary.objectKey, binary.fileName, served);
    return { statusCode: 302, headers: { location, ...common } };
  }
  const bytes = await objects.getObject(binary.objectKey);
  return {
    statusCode: 200,
    headers: {
      'content-type': served.contentType,
      'content-disposition': contentDisposition(binary.fileName),
      ...common,
    },
    isBase64Encoded: true,
    body: bytes.toString('base64'),
  };
}

/** `attachment; filename=…; filename*=UTF-8''…`: a quoted ASCII fallback, then the exact name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
