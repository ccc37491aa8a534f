import { exportItems } from '../lib/exports/export';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { itemsExport } from '../lib/routes/exports';

export const handler = endpoint(itemsExport, async ({ input, principal, pathId }) => {
  const { response, limits } = await exportItems(principal, pathId, input);
  return responseResult(response, limits);
});
