import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deleteRecord } from '../lib/items/records';
import { itemsDelete } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';

export const handler = endpoint(itemsDelete, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'delete',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  return apiResult(await deleteRecord(principal, pathId, scripts));
});
