import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';
import { deleteRecord } from '../lib/items/records';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, pathId }) =>
  deleteRecord(principal, pathId),
);
