import { downloadEndpoint } from '../lib/http/download-endpoint';
import { binariesDownload } from '../lib/routes/files';

export const handler = downloadEndpoint(binariesDownload, 'download');
