import { userUpdateRequest } from '../lib/accounts/schemas';
import { updateUser } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: userUpdateRequest }, ({ input, principal, pathId }) =>
  updateUser(principal, pathId, input),
);
