import * as z from 'zod';
import { endpoint } from '../http/api';
import { fileUrl } from './files';

/**
 * `GET /binaries/{guid}/download` and `/show`: a login cookie (or a Bearer API key, for scripts), then a
 * redirect to a presigned S3 URL valid for 60 seconds. Refusals stay JSON ApiResults, never a login page.
 */
export function downloadEndpoint(disposition: 'inline' | 'attachment') {
  return endpoint(
    { schema: z.object({}), parseBody: false, checkMime: false, auth: { apiKey: false, bearer: true } },
    async ({ principal, event }) => ({
      statusCode: 302,
      headers: {
        location: await fileUrl(principal, event.pathParameters?.guid ?? '', disposition),
        'cache-control': 'no-store',
      },
    }),
  );
}
