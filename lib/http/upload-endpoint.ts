import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Principal } from '../accounts/principal';
import { parseUploadForm, type UploadForm } from '../files/multipart-form';
import type { Answer } from '../files/upload';
import type { Route } from '../routes/route';
import { endpoint } from './api';
import { apiResult } from './response';

/**
 * The upload endpoints' stack (their route entries: a Bearer API key or a login cookie, HTTP 200 for every
 * request processed with the outcome in the body's StatusCode, CONTRACT section 1): the multipart body is
 * read here rather than as JSON; the transport failures keep their own HTTP statuses (web-api.txt 7.2).
 */
export function uploadEndpoint(
  route: Route,
  business: (request: {
    principal: Principal;
    event: APIGatewayProxyEventV2;
    form: UploadForm;
  }) => Promise<Answer>,
) {
  return endpoint(route, async ({ principal, event }) => {
    const body =
      event.body === undefined
        ? Buffer.alloc(0)
        : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
    const form = parseUploadForm(body, event.headers['content-type'], event.headers['content-range']);
    return apiResult(await business({ principal, event, form }));
  });
}
