import { endpoint } from '../lib/http/api';
import { searchRequest } from '../lib/search/schemas';
import { searchTenant } from '../lib/search/search-api';

export const handler = endpoint({ schema: searchRequest }, ({ principal, input }) =>
  searchTenant(principal, input),
);
