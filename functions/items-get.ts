import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { readItem } from '../lib/items/record-get';
import { itemsGet } from '../lib/routes/items';
import { recordScripts } from '../lib/scripts/record-hooks';
import { recordIdsMatching } from '../lib/search/query';

export const handler = endpoint(itemsGet, async ({ input, principal, pathId, event }) => {
  const scripts = recordScripts({
    principal,
    event,
    action: 'get',
    apiVersion: input.ApiVersion,
    id: pathId,
  });
  const { response, limits } = await readItem(principal, pathId, input, scripts, recordIdsMatching);
  return responseResult(response, limits);
});
