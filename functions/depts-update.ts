import { updateDept } from '../lib/accounts/depts';
import { deptUpdateRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: deptUpdateRequest }, ({ input, principal, pathId }) =>
  updateDept(principal, pathId, input),
);
