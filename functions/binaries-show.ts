import { downloadEndpoint } from '../lib/http/download-endpoint';
import { binariesShow } from '../lib/routes/files';

export const handler = downloadEndpoint(binariesShow, 'show');
