import { createDept } from '../lib/accounts/depts';
import { deptCreateRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: deptCreateRequest }, ({ input, principal }) =>
  createDept(principal, input),
);
