import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError } from '../../errors';
import { logger } from '../../log';
import { messages } from '../../messages';
import type { ApiMiddleware, ApiResult } from '../event';
import { type ApiResponse, apiResult, toJson } from '../response';

export interface EnvelopeOptions {
  /**
   * 'body': the HTTP status equals the body's StatusCode (the default, CONTRACT section 1).
   * 'processed': HTTP 200 for every request the endpoint's logic processed (binary upload, background tasks).
   */
  readonly status: 'body' | 'processed';
}

const defaults: EnvelopeOptions = { status: 'body' };

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Turns a business result into the HTTP response, and any error into the spec's ApiResult: known errors
 * with their status and public message, anything else as the generic 500, logged with the request id.
 */
export function envelope(options: Partial<EnvelopeOptions> = {}): ApiMiddleware {
  const { status } = { ...defaults, ...options };

  const envelopeAfter: ApiMiddleware['after'] = (request) => {
    if (request.response !== undefined && request.response !== null)
      request.response = toHttp(request.response, status);
  };

  const envelopeOnError: ApiMiddleware['onError'] = (request) => {
    if (request.response !== undefined) return;
    const error = request.error;
    const id = request.internal.kiroku?.pathId ?? 0;
    if (error instanceof ApiError) {
      logger.info('request refused', { statusCode: error.statusCode, reason: error.reason ?? error.message });
      const response = toHttp(
        apiResult({ id, statusCode: error.statusCode, message: error.message }),
        status,
      );
      request.response = error.httpStatus ? { ...response, statusCode: error.httpStatus } : response;
      return;
    }
    logger.error('unexpected failure', error ?? 'unknown error');
    request.response = toHttp(
      apiResult({ id, statusCode: 500, message: messages.internalServerError }),
      'body',
    );
  };

  return { after: envelopeAfter, onError: envelopeOnError };
}

function toHttp(result: ApiResult, status: EnvelopeOptions['status']): APIGatewayProxyStructuredResultV2 {
  if (typeof result === 'string') return { statusCode: 200, body: result };
  if (!isApiResponse(result)) return result;
  const code = typeof result.body.StatusCode === 'number' ? result.body.StatusCode : 200;
  return {
    statusCode: status === 'body' ? code : 200,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' },
    cookies: result.cookies ? [...result.cookies] : undefined,
    body: toJson(result.body),
  };
}

function isApiResponse(result: Exclude<ApiResult, string>): result is ApiResponse {
  return typeof result === 'object' && result !== null && 'body' in result && typeof result.body === 'object';
}
