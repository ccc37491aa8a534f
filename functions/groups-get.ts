import { readGroup } from '../lib/accounts/groups';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { groupsGet } from '../lib/routes/accounts';

export const handler = endpoint(groupsGet, async ({ principal, pathId }) =>
  responseResult(await readGroup(principal, pathId)),
);
