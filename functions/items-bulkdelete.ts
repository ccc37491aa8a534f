import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { bulkDelete } from '../lib/items/bulk-delete';
import { itemsBulkdelete } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';

export const handler = endpoint(itemsBulkdelete, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'bulkdelete',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  const selected = { ...input, Selected: input.Selected ?? undefined };
  return apiResult(await bulkDelete(principal, pathId, selected, scripts));
});
