import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { bulkDelete } from '../lib/items/bulk-delete';
import { itemsBulkdelete } from '../lib/routes/items';

export const handler = endpoint(itemsBulkdelete, async ({ input, principal, pathId }) =>
  apiResult(await bulkDelete(principal, pathId, { ...input, Selected: input.Selected ?? undefined })),
);
