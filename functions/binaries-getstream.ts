import { endpoint } from '../lib/http/api';
import { fileStream } from '../lib/http/file-stream';
import { binariesGetstream } from '../lib/routes/exports';

export const handler = endpoint(binariesGetstream, async ({ principal, event }) =>
  fileStream(principal, event.pathParameters?.guid ?? ''),
);
