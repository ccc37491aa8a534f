import { Readable } from 'node:stream';
import { logger } from '../log';

/**
 * The S3 SDK and client, loaded by the first call that needs them (see s3-sdk.ts); the promise is kept,
 * since every `import()` goes through the module loader's resolution again.
 */
let sdkModule: Promise<typeof import('./s3-sdk')> | undefined;
const sdk = () => (sdkModule ??= import('./s3-sdk'));
/** The presigner, loaded only by the download routes' first presigned URL. */
let presignerModule: Promise<typeof import('@aws-sdk/s3-request-presigner')> | undefined;
const presigner = () => (presignerModule ??= import('@aws-sdk/s3-request-presigner'));

/**
 * The binary bucket. Files live under `files/<tenant>/<GUID>/<upload>`: keyed by tenant and GUID, never by
 * the client's file name, and a new key for each upload, so an overwrite switches keys atomically in the
 * file's row instead of changing bytes a reader may be fetching. Bytes of a chunked upload that do not yet
 * make a 5 MiB part are held under `uploads/`, which the bucket's lifecycle rule empties after a few days.
 */

/** S3 refuses a non-final part smaller than this. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export interface Part {
  readonly PartNumber: number;
  readonly ETag: string;
}

const bucket = () => {
  const name = process.env.KIROKU_BUCKET;
  if (!name) throw new Error('KIROKU_BUCKET is not set');
  return name;
};

export function fileKey(tenantId: number, guid: string, upload: string): string {
  return `files/${tenantId}/${guid}/${upload}`;
}

export function heldKey(tenantId: number, guid: string, upload: string, offset: number): string {
  return `uploads/${tenantId}/${guid}/${upload}/${offset}`;
}

/** A body for S3: bytes in memory, or a stream of known length (see joined()). */
export type Body = Uint8Array | { readonly stream: Readable; readonly length: number };

export async function putObject(key: string, body: Body, contentType?: string): Promise<void> {
  const { s3, PutObjectCommand } = await sdk();
  await sendWithBody(body, (abortSignal) =>
    s3().send(
      new PutObjectCommand({ Bucket: bucket(), Key: key, ...bodyOf(body), ContentType: contentType }),
      { abortSignal },
    ),
  );
}

/**
 * The held objects' bytes, then `tail`, as one stream: a part is sent to S3 as it is read from S3, never
 * gathered in memory (a 4 MiB chunk would otherwise cost a 4 MiB read and an 8 MiB copy on top of itself).
 * The reads are opened first, so that a missing object fails here rather than in the middle of a write.
 */
export async function joined(
  held: readonly { readonly key: string; readonly size: number }[],
  tail: Uint8Array,
): Promise<Body> {
  if (held.length === 0) return tail;
  const { s3, GetObjectCommand } = await sdk();
  const sources: Readable[] = [];
  for (const part of held) {
    const result = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: part.key }));
    if (!result.Body) throw new Error(`object ${part.key} has no body`);
    sources.push(result.Body as Readable);
  }
  async function* pieces() {
    for (const source of sources) yield* source;
    yield tail;
  }
  const length = held.reduce((sum, part) => sum + part.size, tail.length);
  return { stream: Readable.from(pieces(), { objectMode: false }), length };
}

/** Sends a command whose body may be a stream: a stream that fails aborts the request instead of leaving it. */
async function sendWithBody<T>(body: Body, send: (abortSignal?: AbortSignal) => Promise<T>): Promise<T> {
  if (body instanceof Uint8Array) return send();
  const controller = new AbortController();
  const abort = (error: Error) => controller.abort(error);
  body.stream.once('error', abort);
  try {
    return await send(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    body.stream.off('error', abort);
    body.stream.destroy();
  }
}

function bodyOf(body: Body) {
  return body instanceof Uint8Array ? { Body: body } : { Body: body.stream, ContentLength: body.length };
}

export async function getObject(key: string): Promise<Buffer> {
  const { s3, GetObjectCommand } = await sdk();
  const result = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  if (!result.Body) throw new Error(`object ${key} has no body`);
  const bytes = await result.Body.transformToByteArray();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** An object's bytes as they arrive, never whole in memory (an import's CSV, read row by row). */
export async function objectStream(key: string): Promise<AsyncIterable<Uint8Array>> {
  const { s3, GetObjectCommand } = await sdk();
  const result = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  if (!result.Body) throw new Error(`object ${key} has no body`);
  return result.Body as AsyncIterable<Uint8Array>;
}

/**
 * The first `count` bytes of an object that is not empty (fewer when it is shorter): what a type is
 * sniffed from. An empty object has no byte 0, and S3 refuses the range (416) rather than answer nothing.
 */
export async function firstBytes(key: string, count: number): Promise<Uint8Array> {
  const { s3, GetObjectCommand } = await sdk();
  const result = await s3().send(
    new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${count - 1}` }),
  );
  return (await result.Body?.transformToByteArray()) ?? new Uint8Array();
}

/** The object's size, or undefined when there is none. */
export async function objectSize(key: string): Promise<number | undefined> {
  const { s3, HeadObjectCommand, NotFound } = await sdk();
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return head.ContentLength;
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}

export async function startMultipart(key: string, contentType: string): Promise<string> {
  const { s3, CreateMultipartUploadCommand } = await sdk();
  const result = await s3().send(
    new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: contentType }),
  );
  if (!result.UploadId) throw new Error(`no upload id for ${key}`);
  return result.UploadId;
}

export async function uploadPart(
  key: string,
  uploadId: string,
  partNumber: number,
  body: Body,
): Promise<Part> {
  const { s3, UploadPartCommand } = await sdk();
  const result = await sendWithBody(body, (abortSignal) =>
    s3().send(
      new UploadPartCommand({
        Bucket: bucket(),
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
        ...bodyOf(body),
      }),
      { abortSignal },
    ),
  );
  if (!result.ETag) throw new Error(`no ETag for part ${partNumber} of ${key}`);
  return { PartNumber: partNumber, ETag: result.ETag };
}

/**
 * Completes the multipart upload. Done twice (a retry after the answer was lost), S3 may no longer know the
 * upload (NoSuchUpload; s3rver answers InternalError): the object being there with the expected size then
 * means the first call did it.
 */
export async function completeMultipart(
  key: string,
  uploadId: string,
  parts: readonly Part[],
  size: number,
): Promise<void> {
  const { s3, CompleteMultipartUploadCommand } = await sdk();
  try {
    await s3().send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket(),
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: [...parts] },
      }),
    );
  } catch (error) {
    // The key is this upload's alone, so an object there of the right size is this upload's result.
    if ((await objectSize(key)) === size) return;
    throw error;
  }
}

/** Best effort: the lifecycle rule aborts what this leaves (and s3rver does not implement the call). */
export async function abortMultipart(key: string, uploadId: string): Promise<void> {
  const { s3, AbortMultipartUploadCommand } = await sdk();
  try {
    await s3().send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId: uploadId }));
  } catch (error) {
    logger.warn('could not abort a multipart upload', { key, error });
  }
}

/**
 * Deletes objects. Best effort by default, for a request that has its answer already: a key left behind is
 * unreferenced or under the expiring `uploads/`, and the Binaries stream handler deletes again. `strict`
 * (that handler) throws instead, so that its batch is retried.
 */
export async function deleteObjects(
  keys: readonly string[],
  options: { strict?: boolean } = {},
): Promise<void> {
  if (keys.length === 0) return;
  const { s3, DeleteObjectsCommand } = await sdk();
  for (let at = 0; at < keys.length; at += 1000) {
    const batch = keys.slice(at, at + 1000);
    try {
      const result = await s3().send(
        new DeleteObjectsCommand({
          Bucket: bucket(),
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (result.Errors?.length) {
        throw new Error(
          `could not delete ${result.Errors.map((error) => `${error.Key}: ${error.Code}`).join(', ')}`,
        );
      }
    } catch (error) {
      if (options.strict) throw error;
      logger.warn('could not delete objects', { keys: batch, error });
    }
  }
}

/**
 * A GET URL valid for 60 seconds. The type and disposition are forced on S3's answer through the signed
 * response-* overrides (served-type.ts decides them): the object's own stored type is the uploader's word.
 */
export async function presignedGet(
  key: string,
  fileName: string,
  served: { readonly contentType: string; readonly disposition: 'inline' | 'attachment' },
): Promise<string> {
  const [{ s3, GetObjectCommand }, { getSignedUrl }] = await Promise.all([sdk(), presigner()]);
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: key,
      ResponseContentType: served.contentType,
      ResponseContentDisposition: `${served.disposition}; filename*=UTF-8''${encoded}`,
    }),
    { expiresIn: 60 },
  );
}
