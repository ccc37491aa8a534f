import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { readItem } from '../lib/items/records';
import { itemsGet } from '../lib/routes/items';
import { recordIdsMatching } from '../lib/search/query';

export const handler = endpoint(itemsGet, async ({ input, principal, pathId }) => {
  const { response, limits } = await readItem(principal, pathId, input, recordIdsMatching);
  return responseResult(response, limits);
});
