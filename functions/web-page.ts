import { endpoint } from '../lib/http/api';
import { servePage } from '../lib/http/web-assets';
import { webPage } from '../lib/routes/web';

export const handler = endpoint(webPage, async ({ event }) => servePage(event));
