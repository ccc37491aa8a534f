import { BadRequestError, InvalidJsonError } from '../../errors';
import type { ApiMiddleware } from '../event';

export interface JsonBodyOptions {
  /** Also take an HTML form (application/x-www-form-urlencoded), as the login page posts one. */
  readonly form: boolean;
}

const defaults: JsonBodyOptions = { form: false };

/**
 * Parses the request body into `event.kiroku.json`. Not JSON, an array or a scalar → 400 `Invalid json
 * data.`, as the reference's API filter answers before anything else. The two fields every request shares
 * are checked here too: ApiKey is text (a number is taken as its text), ApiVersion a number.
 */
export function jsonBody(options: Partial<JsonBodyOptions> = {}): ApiMiddleware {
  const { form } = { ...defaults, ...options };

  const jsonBodyBefore: ApiMiddleware['before'] = (request) => {
    const { event } = request;
    const id = event.pathParameters?.id;
    if (id !== undefined && !/^-?\d{1,15}$/.test(id))
      throw new BadRequestError(`path id ${id} is not a number`);

    const text =
      event.body === undefined ? '' : event.isBase64Encoded ? decodeBase64(event.body) : event.body;
    const type = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    const json = form && type === 'application/x-www-form-urlencoded' ? parseForm(text) : parseJson(text);

    const apiKey = propertyOf(json, 'ApiKey');
    if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string' && typeof apiKey !== 'number') {
      throw new InvalidJsonError('ApiKey is not text');
    }
    const apiVersion = propertyOf(json, 'ApiVersion');
    if (apiVersion !== undefined && apiVersion !== null && typeof apiVersion !== 'number') {
      throw new InvalidJsonError('ApiVersion is not a number');
    }
    request.internal.kiroku.json = json;
  };

  return { before: jsonBodyBefore };
}

function parseJson(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidJsonError('body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidJsonError('body is not a JSON object');
  }
  return value as Record<string, unknown>;
}

function parseForm(text: string): Record<string, unknown> {
  return Object.fromEntries(new URLSearchParams(text));
}

function decodeBase64(body: string): string {
  return Buffer.from(body, 'base64').toString('utf8');
}

/** A property by case-insensitive name; an exact match wins over one that differs only in case. */
export function propertyOf(json: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(json, name)) return json[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(json)) if (key.toLowerCase() === lower) return json[key];
  return undefined;
}
