import { createMD5 } from 'hash-wasm';
import { ApiFailure, post, url } from './api';

/**
 * A file sent through `/api/binaries/upload?id=` in 4 MiB chunks (CONTRACT sections 6 and 10), each chunk
 * the file part of its own multipart request with its own `Content-Range` part header, and the whole file's
 * MD5 as FileHash with the last one. After a network error it asks the server how many bytes it holds
 * (`/api/binaries/uploadstatus`) and goes on from there; after a reload the same file, chosen again, does
 * the same: bytes the server has are never sent twice.
 */

export const CHUNK_BYTES = 4 * 1024 * 1024;
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000];

export interface Progress {
  readonly sent: number;
  readonly total: number;
  /** Bytes per second over the last few seconds. */
  readonly rate: number;
  /** Seconds left at that rate, or undefined before there is a rate. */
  readonly secondsLeft?: number;
  /** Set while the upload waits to retry after a network error. */
  readonly retrying?: string;
}

export interface Uploaded {
  readonly guid: string;
  readonly binaryId: number;
}

export class CancelledError extends Error {}

export class ChunkedUpload {
  private request?: XMLHttpRequest;
  private cancelled = false;
  private samples: { at: number; sent: number }[] = [];

  constructor(
    readonly file: File,
    readonly referenceId: number,
    private readonly onProgress: (progress: Progress) => void,
  ) {}

  cancel(): void {
    this.cancelled = true;
    this.request?.abort();
  }

  async run(): Promise<Uploaded> {
    const total = this.file.size;
    const md5 = await createMD5();
    md5.init();
    let offset = await this.resumePoint();
    // The hash state lives here, not on the server's side of the wire: rebuild it over what was sent.
    for (let at = 0; at < offset; at += CHUNK_BYTES) {
      md5.update(new Uint8Array(await this.file.slice(at, Math.min(at + CHUNK_BYTES, offset)).arrayBuffer()));
    }
    this.report(offset, total);
    let failures = 0;
    let guid = '';
    // The next chunk is read, and this one hashed, while this one is on the wire.
    let reading = this.read(offset);
    for (;;) {
      const end = total === 0 ? 0 : Math.min(offset + CHUNK_BYTES, total);
      const read = await reading;
      const bytes = read.offset === offset ? read.bytes : (await this.read(offset)).bytes;
      const last = end >= total;
      const before = md5.save();
      let fileHash: string | undefined;
      if (last) {
        md5.update(bytes);
        fileHash = md5.digest('hex');
      }
      const sending = this.send(offset, end, total, bytes, fileHash);
      if (!last) {
        md5.update(bytes);
        reading = this.read(end);
      }
      try {
        const answer = await sending;
        failures = 0;
        offset = end;
        this.report(offset, total);
        if (last) return { guid: String(answer.Message ?? guid), binaryId: Number(answer.Id) };
        guid = String(answer.Message ?? '');
      } catch (error) {
        md5.init();
        md5.load(before);
        if (this.cancelled) throw new CancelledError('cancelled');
        if (error instanceof ApiFailure && error.statusCode !== 0) throw error;
        const delay = RETRY_DELAYS_MS[failures++];
        if (delay === undefined) throw error;
        this.report(offset, total, (error as Error).message);
        await sleep(delay);
        // The chunk may have arrived although its answer did not: ask, and hash what the server holds.
        const held = await this.resumePoint().catch(() => offset);
        if (held > offset) {
          md5.update(bytes.subarray(0, held - offset));
          offset = held;
        }
        reading = this.read(offset);
      }
    }
  }

  private async read(offset: number): Promise<{ offset: number; bytes: Uint8Array }> {
    const end = Math.min(offset + CHUNK_BYTES, this.file.size);
    return { offset, bytes: new Uint8Array(await this.file.slice(offset, end).arrayBuffer()) };
  }

  /** Where the server's upload of this file stands: 0 when it holds none of it. */
  private async resumePoint(): Promise<number> {
    const answer = await post<{ Response: { Received: number; Total: number } }>(
      'api/binaries/uploadstatus',
      {
        id: this.referenceId,
        FileName: this.file.name,
      },
    );
    const { Received, Total } = answer.Response;
    return Total === this.file.size && Received < Total ? Received : 0;
  }

  private send(from: number, to: number, total: number, bytes: Uint8Array, fileHash?: string) {
    const boundary = `----kiroku${crypto.randomUUID().replace(/-/g, '')}`;
    const name = this.file.name;
    const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${ascii}"; ` +
      `filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
      `Content-Type: ${this.file.type || 'application/octet-stream'}\r\n` +
      (total > CHUNK_BYTES ? `Content-Range: bytes ${from}-${Math.max(to - 1, 0)}/${total}\r\n` : '') +
      '\r\n';
    const hash = fileHash
      ? `\r\n--${boundary}\r\nContent-Disposition: form-data; name="FileHash"\r\n\r\n${fileHash}`
      : '';
    const body = new Blob([head, bytes as BlobPart, `${hash}\r\n--${boundary}--\r\n`]);
    return new Promise<{ Id?: number; Message?: string }>((resolve, reject) => {
      const request = new XMLHttpRequest();
      this.request = request;
      request.open('POST', url(`api/binaries/upload?id=${this.referenceId}`));
      request.setRequestHeader('content-type', `multipart/form-data; boundary=${boundary}`);
      request.setRequestHeader('x-requested-with', 'XMLHttpRequest');
      request.upload.onprogress = (event) => this.report(from + Math.min(event.loaded, bytes.length), total);
      request.onerror = () => reject(new Error('the connection was lost'));
      request.ontimeout = () => reject(new Error('the server did not answer in time'));
      request.onabort = () => reject(new CancelledError('cancelled'));
      request.onload = () => {
        let answer: { Id?: number; StatusCode?: number; Message?: string; Errors?: [] };
        try {
          answer = JSON.parse(request.responseText);
        } catch {
          reject(
            new ApiFailure(
              `The server answered ${request.status} without a readable result.`,
              request.status,
            ),
          );
          return;
        }
        if (answer.StatusCode === 200) resolve(answer);
        else
          reject(
            new ApiFailure(
              answer.Message ?? `Error ${answer.StatusCode}`,
              answer.StatusCode ?? request.status,
              answer.Errors,
            ),
          );
      };
      request.send(body);
    });
  }

  private report(sent: number, total: number, retrying?: string): void {
    const at = performance.now();
    this.samples.push({ at, sent });
    while (this.samples.length > 2 && at - (this.samples[0]?.at ?? at) > 5000) this.samples.shift();
    const first = this.samples[0] as { at: number; sent: number };
    const seconds = (at - first.at) / 1000;
    const rate = seconds > 0.2 ? Math.max(0, (sent - first.sent) / seconds) : 0;
    const secondsLeft = rate > 0 ? (total - sent) / rate : undefined;
    this.onProgress({ sent, total, rate, secondsLeft, retrying });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
