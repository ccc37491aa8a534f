import { updateGroup } from '../lib/accounts/groups';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { groupsUpdate } from '../lib/routes/accounts';

export const handler = endpoint(groupsUpdate, async ({ input, principal, pathId }) =>
  apiResult(await updateGroup(principal, pathId, input)),
);
