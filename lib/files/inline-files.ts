import { randomBytes } from 'node:crypto';
import { settings } from '../config/settings';
import { OverLimitSizeError, UnsupportedInputError } from '../errors';
import type { Binary, Owner } from './model';
import { fileKey, putObject } from './object-store';
import { nextBinaryId } from './repository';

/**
 * An attachment given inline in a record write, `{Name, Base64, ContentType?}` (reference/pleasanter-
 * items-api.md 5): stored as a new file under a new GUID, attached to the record by the write's own
 * transaction. The bytes go to S3 first; if the write then fails they are an object without a row.
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface InlineEntry {
  readonly Name?: string;
  readonly Base64?: string;
  readonly Base64Binary?: string;
  readonly ContentType?: string;
}

export async function storeInlineFile(
  principal: Owner,
  recordId: number,
  column: string,
  entry: InlineEntry,
  time: number,
): Promise<Binary> {
  const name = entry.Name ?? '';
  if (name.trim() === '') throw new UnsupportedInputError(`${column}: an inline file needs a Name.`);
  const text = (entry.Base64 ?? entry.Base64Binary ?? '').replace(/\s/g, '');
  if (!BASE64.test(text) || text.length % 4 !== 0) {
    throw new UnsupportedInputError(`${column}: the Base64 of ${name} is not valid base64.`);
  }
  const bytes = Buffer.from(text, 'base64');
  const maxMb = settings().BinaryStorage.MaxSize;
  if (bytes.length > maxMb * 1024 * 1024) {
    throw new OverLimitSizeError(maxMb, `${column}: ${name} is ${bytes.length} bytes`);
  }
  const guid = randomBytes(16).toString('hex').toUpperCase();
  const objectKey = fileKey(principal.tenantId, guid, randomBytes(8).toString('hex'));
  const contentType = entry.ContentType || 'text/plain';
  await putObject(objectKey, bytes, contentType);
  const dot = name.lastIndexOf('.');
  return {
    binaryId: await nextBinaryId(),
    tenantId: principal.tenantId,
    guid,
    referenceId: recordId,
    attached: true,
    fileName: name,
    extension: dot > 0 ? name.slice(dot) : '',
    contentType,
    size: bytes.length,
    objectKey,
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
  };
}
