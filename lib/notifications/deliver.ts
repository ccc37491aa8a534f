import iconv from 'iconv-lite';
import { settings } from '../config/settings';
import { sendMail } from '../mail/send';
import { hostAllowList } from '../net/addresses';
import { outboundRequest, RefusedRequestError } from '../net/outbound';
import type { HttpNotice, Notice } from './model';
import { SIGNATURE_HEADER, type SiteSecret, signature } from './secrets';

/**
 * One attempt at one notice, and what it came to. An HttpNotice is one request: its own headers, then
 * Kiroku's, `X-Kiroku-Delivery` (the delivery's id, the same on every attempt, so that a receiver drops
 * repeats) and, when signed, `X-Kiroku-Signature`. A MailNotice goes to sendMail.
 *
 * DELIVERY_TIMEOUT_MS bounds an attempt: a receiver that has not answered in 10 s is in trouble and gets
 * its retry later, rather than holding the batch (and the stream shard behind it) and the function's
 * billed time; 10 s is what GitHub gives its webhooks, and chat services answer in well under one.
 */

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Read of a receiver's answer: enough for an error's first lines, never a large page. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
const REASON_EXCERPT = 300;
export const DELIVERY_HEADER = 'X-Kiroku-Delivery';
/** Headers the request's own framing sets: a notification's would contradict it. */
const FRAMING_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

export type Attempt =
  | { readonly outcome: 'delivered'; readonly status?: number }
  /** Worth another try later: 5xx, 408, 429, no answer in time, no connection. */
  | { readonly outcome: 'retry'; readonly status?: number; readonly reason: string }
  /** Will not go better by repeating the same request: a 4xx other than 408 and 429, or a redirect. */
  | { readonly outcome: 'failed'; readonly status?: number; readonly reason: string }
  /** Not sent at all: a private address, or a request that cannot be made as it is. */
  | { readonly outcome: 'refused'; readonly reason: string };

export interface AttemptContext {
  readonly tenantId: number;
  readonly deliveryId: string;
  /** The site's secret, for a signed notice. */
  readonly secret: () => Promise<SiteSecret>;
}

export async function attemptNotice(notice: Notice, context: AttemptContext): Promise<Attempt> {
  if (notice.kind === 'mail') {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer from the mail service within ${DELIVERY_TIMEOUT_MS} ms`)),
        DELIVERY_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([sendMail(context.tenantId, notice), timeout]);
      return { outcome: 'delivered' };
    } catch (error) {
      return { outcome: 'retry', reason: `mail not taken: ${(error as Error).message}`.slice(0, 500) };
    } finally {
      clearTimeout(timer);
    }
  }
  return attemptRequest(notice, context);
}

/**
 * The body's bytes in the charset its Content-Type names (HttpClient's `Encoding`, checked on save to be one
 * iconv-lite writes), UTF-8 otherwise.
 */
export function encodedBody(notice: Pick<HttpNotice, 'body' | 'contentType'>): Buffer {
  const charset = /;\s*charset=([^;\s]+)/i.exec(notice.contentType)?.[1]?.replace(/^"|"$/g, '');
  return charset && iconv.encodingExists(charset)
    ? iconv.encode(notice.body, charset)
    : Buffer.from(notice.body, 'utf8');
}

async function attemptRequest(notice: HttpNotice, context: AttemptContext): Promise<Attempt> {
  const body = notice.method === 'GET' ? undefined : encodedBody(notice);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(notice.headers)) {
    if (!FRAMING_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  if (body) headers['content-type'] = notice.contentType;
  headers[DELIVERY_HEADER.toLowerCase()] = context.deliveryId;
  headers['user-agent'] ??= 'Kiroku';
  if (notice.signed) headers[SIGNATURE_HEADER.toLowerCase()] = signature(body ?? '', await context.secret());
  try {
    const response = await outboundRequest({
      url: notice.url,
      method: notice.method,
      headers,
      ...(body && { body }),
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      allowList: hostAllowList(settings().Notification.AllowedHosts, 'Notification.AllowedHosts'),
    });
    const { status } = response;
    if (status >= 200 && status < 300) return { outcome: 'delivered', status };
    const excerpt = response.body.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, REASON_EXCERPT);
    const said = `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`;
    if (status >= 300 && status < 400) {
      const location = String(response.headers.location ?? '').slice(0, 200);
      return {
        outcome: 'failed',
        status,
        reason: `${said} (a redirect to ${location || 'nowhere'}, not followed)`,
      };
    }
    if (status >= 400 && status < 500 && status !== 408 && status !== 429)
      return { outcome: 'failed', status, reason: said };
    return { outcome: 'retry', status, reason: said };
  } catch (error) {
    if (error instanceof RefusedRequestError) return { outcome: 'refused', reason: error.message };
    // Node refuses a header value or token it cannot send (a line break in a header): not sendable as it is.
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('ERR_INVALID')) return { outcome: 'refused', reason: (error as Error).message };
    return {
      outcome: 'retry',
      reason: `${code ? `${code}: ` : ''}${(error as Error).message}`.slice(0, 500),
    };
  }
}
