import { downloadEndpoint } from '../lib/binaries/download-endpoint';

export const handler = downloadEndpoint('inline');
