import { endpoint } from '../lib/http/api';
import { serveAsset } from '../lib/http/web-assets';
import { webAsset } from '../lib/routes/web';

export const handler = endpoint(webAsset, async ({ event }) => serveAsset(event));
