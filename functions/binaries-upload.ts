import { uploadNew } from '../lib/binaries/files';
import { uploadEndpoint } from '../lib/binaries/upload-endpoint';

export const handler = uploadEndpoint(({ principal, event, form }) =>
  uploadNew(principal, event.queryStringParameters?.id, form),
);
