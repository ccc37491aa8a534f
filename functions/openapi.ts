import * as z from 'zod';
import { endpoint } from '../lib/http/api';
import { openApiDocument } from '../lib/openapi';

let document: ReturnType<typeof openApiDocument> | undefined;

export const handler = endpoint(
  { schema: z.object({}), auth: false, parseBody: false, checkMime: false },
  async ({ event }) => {
    document ??= openApiDocument(`https://${event.requestContext.domainName}${basePath()}`);
    return { body: document as unknown as Record<string, unknown> };
  },
);

function basePath(): string {
  return process.env.KIROKU_BASE_PATH?.replace(/\/+$/, '') ?? '';
}
