import { createGroup } from '../lib/accounts/groups';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { groupsCreate } from '../lib/routes/accounts';

export const handler = endpoint(groupsCreate, async ({ input, principal }) =>
  apiResult(await createGroup(principal, input)),
);
