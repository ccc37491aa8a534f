import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { upsert } from '../lib/items/upsert';
import { itemsUpsert } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';

export const handler = endpoint(itemsUpsert, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'upsert',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  return apiResult(await upsert(principal, pathId, input, scripts));
});
