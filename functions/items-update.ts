import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { updateRecord } from '../lib/items/records';
import { itemsUpdate } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';

export const handler = endpoint(itemsUpdate, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'update',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  return apiResult(await updateRecord(principal, pathId, input, scripts));
});
