import { readGroup } from '../lib/accounts/groups';
import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, pathId }) =>
  readGroup(principal, pathId),
);
