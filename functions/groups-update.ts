import { updateGroup } from '../lib/accounts/groups';
import { groupUpdateRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: groupUpdateRequest }, ({ input, principal, pathId }) =>
  updateGroup(principal, pathId, input),
);
