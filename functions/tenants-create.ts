import { tenantCreateRequest } from '../lib/accounts/schemas';
import { createTenant } from '../lib/accounts/tenants';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: tenantCreateRequest }, ({ input, principal }) =>
  createTenant(principal, input),
);
