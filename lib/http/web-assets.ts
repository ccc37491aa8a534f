import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { basePath } from '../config/base-path';
import { NotFoundError } from '../errors';

/**
 * The browser UI's files (built by web/build.ts): the page and its hashed assets, served by two Lambda
 * functions. In a Lambda bundle they sit in `web/` beside the handler; the local runtime builds them and
 * names the folder in KIROKU_WEB_DIR. Each file is read, hashed and compressed once per container.
 */

interface Prepared {
  readonly type: string;
  readonly etag: string;
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/** A hashed asset's name: letters, digits, dash and dot, one of the types above. */
const ASSET_NAME = /^[A-Za-z0-9-]{1,80}\.(js|css|svg|map)$/;

const prepared = new Map<string, Prepared>();

function webDir(): string {
  return process.env.KIROKU_WEB_DIR || join(import.meta.dirname, 'web');
}

function read(name: string): Buffer | undefined {
  try {
    return readFileSync(join(webDir(), name));
  } catch {
    return undefined;
  }
}

/**
 * A file with its compressed forms: the build's `.br` and `.gz` beside it (web/build.ts), or made here for
 * the page, whose base path is filled in at run time (it is under 1 KB).
 */
function prepare(name: string, transform?: (text: string) => string): Prepared {
  const key = transform ? `${name}#${basePath()}` : name;
  let file = prepared.get(key);
  if (!file) {
    let bytes = read(name);
    if (!bytes) throw new NotFoundError(`no UI file ${name}`);
    if (transform) bytes = Buffer.from(transform(bytes.toString('utf8')));
    file = {
      type: TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`,
      identity: bytes,
      gzip: (!transform && read(`${name}.gz`)) || gzipSync(bytes, { level: 9 }),
      br: (!transform && read(`${name}.br`)) || brotliCompressSync(bytes),
    };
    prepared.set(key, file);
  }
  return file;
}

/** Security headers of every UI answer; scripts run from this origin only (site scripts through eval). */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
    "img-src 'self' data: blob: http: https:; connect-src 'self'; frame-ancestors 'none'; " +
    "base-uri 'self'; form-action 'self'; object-src 'none'",
};

function answer(
  event: APIGatewayProxyEventV2,
  file: Prepared,
  cache: string,
): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': file.type,
    'cache-control': cache,
    etag: file.etag,
    vary: 'accept-encoding',
  };
  if (event.headers['if-none-match'] === file.etag) return { statusCode: 304, headers };
  const accepted = (event.headers['accept-encoding'] ?? '').toLowerCase();
  const [encoding, body] = /\bbr\b/.test(accepted)
    ? (['br', file.br] as const)
    : /\bgzip\b/.test(accepted)
      ? (['gzip', file.gzip] as const)
      : ([undefined, file.identity] as const);
  if (encoding) headers['content-encoding'] = encoding;
  return { statusCode: 200, headers, isBase64Encoded: true, body: body.toString('base64') };
}

/** The page: `<base href>` is the deployment's base path, so that every URL in it is relative to it. */
export function servePage(event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 {
  const base = `${basePath()}/`;
  const page = prepare('index.html', (html) => html.replace('%BASE%', base.replace(/"/g, '&quot;')));
  return answer(event, page, 'no-cache');
}

/** An asset: its name carries its content's hash, so a browser keeps it for a year. */
export function serveAsset(event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 {
  const name = event.pathParameters?.file ?? '';
  if (!ASSET_NAME.test(name)) throw new NotFoundError(`no UI asset ${name}`);
  return answer(event, prepare(name), 'public, max-age=31536000, immutable');
}
