import { emptyRequest } from '../lib/accounts/schemas';
import { createApiKey } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, pathId }) =>
  createApiKey(principal, pathId),
);
