import * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { endpoint } from '../http/api';
import type { ApiEvent } from '../http/event';
import type { ApiResponse } from '../http/response';
import { parseUploadForm, type UploadForm } from './multipart-form';

/**
 * The upload endpoints' stack: `Authorization: Bearer <API key>` or a login cookie, a multipart body read
 * here rather than as JSON, and HTTP 200 for every request processed, with the outcome in the body's
 * StatusCode (CONTRACT section 1); the transport failures keep their own HTTP statuses (web-api.txt 7.2).
 */
export function uploadEndpoint(
  business: (request: { principal: Principal; event: ApiEvent; form: UploadForm }) => Promise<ApiResponse>,
) {
  return endpoint(
    {
      schema: z.object({}),
      parseBody: false,
      checkMime: false,
      status: 'processed',
      auth: { apiKey: false, bearer: true },
    },
    ({ principal, event }) => {
      const body =
        event.body === undefined
          ? Buffer.alloc(0)
          : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
      return business({ principal, event, form: parseUploadForm(body, event.headers['content-type']) });
    },
  );
}
