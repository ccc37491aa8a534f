import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { itemsChildsites } from '../lib/routes/sites';
import { childSites, deletedChildSites } from '../lib/sites/child-sites';

export const handler = endpoint(itemsChildsites, async ({ principal, pathId, input }) => {
  const list = input.TableType === 'Deleted' ? deletedChildSites : childSites;
  const reading = await list(principal, pathId);
  return responseResult(reading.response, reading.limits);
});
