import * as Multipasta from 'multipasta';
import { MAX_LENGTH } from '../bounds';
import { BadPartHeaderError, NotMultipartError, UnreadableMultipartError } from '../errors';

/** The first file of an upload form, with the headers of its own part. */
export interface FormFile {
  /** The part after the last path separator of the part's filename. */
  readonly name: string;
  readonly contentType: string;
  /** The file part's own Content-Range header, else the request's (CONTRACT 6), as sent. */
  readonly contentRange?: string;
  readonly bytes: Buffer;
}

export interface UploadForm {
  /** The first file of the form; the others are ignored, and so is the field name. */
  readonly file?: FormFile;
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * Parses a multipart/form-data body (reference/library-choices.md §1: multipasta sees each part's own
 * headers, which busboy hides). A body that is not multipart answers HTTP 404 and one that cannot be
 * interpreted HTTP 500, each with an ApiResult, as web-api.txt 7.2 gives the HTTP statuses.
 *
 * `requestRange` is the request's own Content-Range header, taken when the file part has none: the
 * reference ignores it, but a caller who chunks with `curl -H 'Content-Range: …'` sends it there, and
 * ignoring it would store every chunk as a file of its own, which shows only at the final FileHash.
 */
export function parseUploadForm(
  body: Buffer,
  contentType: string | undefined,
  requestRange?: string,
): UploadForm {
  if (!/^multipart\/form-data\s*;/i.test(contentType ?? '') || !/boundary=/i.test(contentType ?? '')) {
    throw new NotMultipartError(contentType);
  }
  const fields: Record<string, string> = {};
  let file: FormFile | undefined;
  let failure: Multipasta.MultipartError | undefined;
  let done = false;
  const parser = Multipasta.make({
    headers: { 'content-type': contentType ?? '' },
    // A part with a filename is a file, whatever its content type; a field never is. An empty filename
    // is what a browser sends for a file input left empty: no file.
    isFile: (info) => Boolean(disposition(info).filename),
    onField: (info, value) => {
      const name = disposition(info).name ?? '';
      if (!Object.hasOwn(fields, name)) fields[name] = Multipasta.decodeField(info, value);
    },
    onFile: (info) => {
      if (file !== undefined) return () => undefined;
      const filename = disposition(info).filename ?? '';
      if (filename.length > MAX_LENGTH.title) {
        throw new BadPartHeaderError(
          'Content-Disposition',
          `filename is over ${MAX_LENGTH.title} characters`,
        );
      }
      const chunks: Uint8Array[] = [];
      return (chunk) => {
        if (chunk !== null) {
          chunks.push(chunk);
          return;
        }
        file = {
          name: baseName(filename),
          contentType: info.contentType || 'application/octet-stream',
          contentRange: single(info.headers['content-range']) ?? requestRange,
          // A view, not a copy, when the parser handed the file over in one piece (it does for a body
          // parsed at once): a 4 MiB chunk is copied often enough on its way to S3.
          bytes: chunks.length === 1 ? view(chunks[0] as Uint8Array) : Buffer.concat(chunks),
        };
      };
    },
    onError: (error) => {
      failure ??= error;
    },
    onDone: () => {
      done = true;
    },
  });
  feed(parser, body);
  if (failure || !done) {
    throw new UnreadableMultipartError(`multipart: ${failure?._tag ?? 'no end'}`);
  }
  return { file, fields };
}

/**
 * multipasta decodes `filename*` itself, with a decodeURIComponent that throws on a malformed escape
 * (`UTF-8''%ZZ.txt`) from inside write(); that is the client's header, not a server failure.
 */
function feed(parser: ReturnType<typeof Multipasta.make>, body: Buffer): void {
  try {
    parser.write(body);
    parser.end();
  } catch (error) {
    if (error instanceof URIError) {
      throw new BadPartHeaderError('Content-Disposition', 'filename* is not valid UTF-8 percent-encoding');
    }
    throw error;
  }
}

/**
 * The name and filename of a part's Content-Disposition, read here because multipasta's parser drops every
 * parameter of a header whose quoted value holds a character above U+00FF, which a UTF-8 file name
 * (`報告書.pdf`, `Bob’s.txt`) does, as browsers send it. `filename*` (RFC 5987) wins over `filename`.
 */
function disposition(info: Multipasta.PartInfo): { name?: string; filename?: string } {
  const header = single(info.headers['content-disposition']) ?? '';
  const parameters: Record<string, string> = {};
  for (const match of header.matchAll(/;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    const key = (match[1] as string).toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
    if (!Object.hasOwn(parameters, key)) parameters[key] = value;
  }
  const extended =
    parameters['filename*'] === undefined ? undefined : decodeExtended(parameters['filename*']);
  return { name: parameters.name, filename: extended ?? parameters.filename };
}

/** `UTF-8''%E5%A0%B1.pdf` → `報.pdf`; undefined when it is not that form. */
function decodeExtended(value: string): string | undefined {
  const match = /^utf-8'[^']*'(.*)$/i.exec(value);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
}

/** The file name without any client path, Windows or POSIX (the reference keeps the last segment). */
function baseName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
