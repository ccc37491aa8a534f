import { createGroup } from '../lib/accounts/groups';
import { groupCreateRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: groupCreateRequest }, ({ input, principal }) =>
  createGroup(principal, input),
);
