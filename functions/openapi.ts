import { basePath } from '../lib/config/base-path';
import { endpoint } from '../lib/http/api';
import { openApiDocument } from '../lib/openapi';
import { openapi } from '../lib/routes/meta';

const documents = new Map<string, ReturnType<typeof openApiDocument>>();

/** The document, its `servers` entry the URL it was fetched from: scheme, host and port, base path. */
export const handler = endpoint(openapi, async ({ event }) => {
  const scheme = (event.headers['x-forwarded-proto'] ?? 'https').split(',')[0]?.trim() || 'https';
  const host = event.headers.host ?? event.requestContext.domainName;
  const url = `${scheme}://${host}${basePath()}`;
  let document = documents.get(url);
  if (!document) {
    document = openApiDocument(url);
    documents.set(url, document);
  }
  return { body: { ...document } };
});
