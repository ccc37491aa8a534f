import { readDept } from '../lib/accounts/depts';
import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, pathId }) =>
  readDept(principal, pathId),
);
