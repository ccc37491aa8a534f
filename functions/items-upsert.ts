import { endpoint } from '../lib/http/api';
import { upsertRequest } from '../lib/items/schemas';
import { upsert } from '../lib/items/upsert';

export const handler = endpoint({ schema: upsertRequest }, ({ input, principal, pathId }) =>
  upsert(principal, pathId, input),
);
