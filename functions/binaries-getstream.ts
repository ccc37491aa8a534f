import { fileStream } from '../lib/exports/file-stream';
import { endpoint } from '../lib/http/api';
import { binariesGetstream } from '../lib/routes/exports';

export const handler = endpoint(binariesGetstream, async ({ principal, event }) =>
  fileStream(principal, event.pathParameters?.guid ?? ''),
);
