import { deleteGroup } from '../lib/accounts/groups';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { groupsDelete } from '../lib/routes/accounts';

export const handler = endpoint(groupsDelete, async ({ principal, pathId }) =>
  apiResult(await deleteGroup(principal, pathId)),
);
