import { fileUrl } from '../items/file-access';
import type { Route } from '../routes/route';
import { endpoint } from './api';

/**
 * `GET /binaries/{guid}/download` and `/show`: a login cookie (or a Bearer API key, for scripts), then a
 * redirect to a presigned S3 URL valid for 60 seconds. Refusals stay JSON ApiResults, never a login page.
 */
export function downloadEndpoint(route: Route, disposition: 'inline' | 'attachment') {
  return endpoint(route, async ({ principal, event }) => ({
    statusCode: 302,
    headers: {
      location: await fileUrl(principal, event.pathParameters?.guid ?? '', disposition),
      'cache-control': 'no-store',
    },
  }));
}
