import { listGroups } from '../lib/account-lists/lists';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { groupsGet } from '../lib/routes/accounts';

// One function for `groups/get` (the tenant's, paged) and `groups/{id}/get`: pathId 0 is the list.
export const handler = endpoint(groupsGet, async ({ input, principal, pathId }) =>
  responseResult(await listGroups(principal, pathId, input)),
);
