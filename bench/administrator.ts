import type { Principal } from '../lib/accounts/principal';

/** The administrator bootstrapAdministrator creates (tenant 1, user 1), as an in-process call sees it. */
export const administrator: Principal = {
  tenantId: 1,
  userId: 1,
  loginId: 'Administrator',
  name: 'Administrator',
  tenantManager: true,
  privileged: true,
  via: 'apiKey',
};
