import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { bulkUpsert } from '../lib/items/bulk-upsert';
import { itemsBulkupsert } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';

export const handler = endpoint(itemsBulkupsert, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'bulkupsert',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  return apiResult(await bulkUpsert(principal, pathId, input, scripts));
});
