import { createTenant } from '../lib/accounts/tenants';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { tenantsCreate } from '../lib/routes/accounts';

export const handler = endpoint(tenantsCreate, async ({ input, principal }) => {
  const { apiKey, ...outcome } = await createTenant(principal, input);
  return apiResult(outcome, { ApiKey: apiKey });
});
