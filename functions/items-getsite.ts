import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';
import { readSite } from '../lib/items/sites';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, pathId }) =>
  readSite(principal, pathId),
);
