import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { createRecord } from '../lib/items/records';
import { itemsCreate } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';

export const handler = endpoint(itemsCreate, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'create',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  return apiResult(await createRecord(principal, pathId, input, scripts));
});
