import { uploadNew } from '../lib/files/new-upload';
import { uploadEndpoint } from '../lib/http/upload-endpoint';
import { binariesUpload } from '../lib/routes/files';

export const handler = uploadEndpoint(binariesUpload, ({ principal, event, form }) =>
  uploadNew(principal, event.queryStringParameters?.id, form),
);
