import { fileUrl } from '../items/file-access';
import type { Route } from '../routes/route';
import { endpoint } from './api';

/**
 * `GET /binaries/{guid}/download` and `/show`: a login cookie (or a Bearer API key, for scripts), then a
 * redirect to a presigned S3 URL valid for 60 seconds. Refusals stay JSON ApiResults, never a login page.
 * The type and disposition S3 answers with are forced by the URL (lib/files/served-type.ts); S3 has no
 * override for X-Content-Type-Options, so only this redirect carries nosniff.
 */
export function downloadEndpoint(route: Route, kind: 'show' | 'download') {
  return endpoint(route, async ({ principal, event }) => ({
    statusCode: 302,
    headers: {
      location: await fileUrl(principal, event.pathParameters?.guid ?? '', kind),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  }));
}
