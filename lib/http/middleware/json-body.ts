import { BadRequestError, InvalidJsonError } from '../../errors';
import { parseUploadForm } from '../../files/multipart-form';
import type { ApiMiddleware } from '../event';
import { parseJsonText } from '../json-text';

export interface JsonBodyOptions {
  /** Also take an HTML form (application/x-www-form-urlencoded), as the login page posts one. */
  readonly form: boolean;
  /**
   * The body is multipart/form-data whose `parameters` field holds the JSON (the reference's imports):
   * the JSON is read from it, and the form is kept for the handler (`state.form`).
   */
  readonly multipart: boolean;
}

const defaults: JsonBodyOptions = { form: false, multipart: false };

/**
 * Parses the request body into `event.kiroku.json`. Not JSON, an array or a scalar → 400 `Invalid json
 * data.`, as the reference's API filter answers before anything else. The two fields every request shares
 * are checked here too: ApiKey is text (a number is taken as its text), ApiVersion a number or its text.
 */
export function jsonBody(options: Partial<JsonBodyOptions> = {}): ApiMiddleware {
  const { form, multipart } = { ...defaults, ...options };

  const jsonBodyBefore: ApiMiddleware['before'] = (request) => {
    const { event } = request;
    const id = event.pathParameters?.id;
    if (id !== undefined && !/^-?\d{1,15}$/.test(id))
      throw new BadRequestError(`path id ${id} is not a number`);

    const type = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    let json: Record<string, unknown>;
    if (multipart) {
      if (type !== 'multipart/form-data')
        throw new BadRequestError('the body must be multipart/form-data with the fields parameters and file');
      const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
      const parsed = parseUploadForm(body, event.headers['content-type']);
      request.internal.kiroku.form = parsed;
      json = parseJson(parsed.fields.parameters ?? '');
    } else {
      const text =
        event.body === undefined ? '' : event.isBase64Encoded ? decodeBase64(event.body) : event.body;
      json = form && type === 'application/x-www-form-urlencoded' ? parseForm(text) : parseJson(text);
    }

    const apiKey = propertyOf(json, 'ApiKey');
    if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string' && typeof apiKey !== 'number') {
      throw new InvalidJsonError('ApiKey is not text');
    }
    const apiVersion = propertyOf(json, 'ApiVersion');
    // A number or a numeric string (`"1.1"`, as several clients send it), CONTRACT section 1.
    const numericText = typeof apiVersion === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(apiVersion);
    if (apiVersion !== undefined && apiVersion !== null && typeof apiVersion !== 'number' && !numericText) {
      throw new InvalidJsonError('ApiVersion is not a number');
    }
    request.internal.kiroku.json = json;
  };

  return { before: jsonBodyBefore };
}

function parseJson(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value = parseJsonText(text);
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
