import { endpoint } from '../lib/http/api';
import { bulkDelete } from '../lib/items/bulk-delete';
import { bulkDeleteRequest } from '../lib/items/schemas';

export const handler = endpoint({ schema: bulkDeleteRequest }, ({ input, principal, pathId }) =>
  bulkDelete(principal, pathId, { ...input, Selected: input.Selected ?? undefined }),
);
