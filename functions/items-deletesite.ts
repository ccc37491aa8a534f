import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';
import { deleteSite } from '../lib/items/sites';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, pathId }) =>
  deleteSite(principal, pathId),
);
