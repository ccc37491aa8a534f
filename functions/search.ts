import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { searchAll } from '../lib/routes/search';
import { searchTenant } from '../lib/search/background';

export const handler = endpoint(searchAll, async ({ principal, input }) =>
  responseResult(await searchTenant(principal, input)),
);
