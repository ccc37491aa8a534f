import { endpoint } from '../lib/http/api';
import { bulkUpsertRequest } from '../lib/items/schemas';
import { bulkUpsert } from '../lib/items/upsert';

export const handler = endpoint({ schema: bulkUpsertRequest }, ({ input, principal, pathId }) =>
  bulkUpsert(principal, pathId, input),
);
