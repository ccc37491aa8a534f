import { endpoint } from '../lib/http/api';
import { readItem } from '../lib/items/record-get';
import { recordGetRequest } from '../lib/items/schemas';

export const handler = endpoint({ schema: recordGetRequest }, ({ input, principal, pathId }) =>
  readItem(principal, pathId, input),
);
