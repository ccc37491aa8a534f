import type * as z from 'zod';
import { now } from '../clock';
import { ForbiddenError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { putFirstTenant } from './first-start';
import type { Principal } from './principal';
import type { Giver } from './privilege';
import * as repository from './repository';
import type { tenantCreateRequest } from './schemas';
import { createUser, zoneFor } from './users';

/** A new tenant with its first user, a tenant manager, whose API key is shown once in the answer. */
export async function createTenant(
  principal: Principal,
  input: z.infer<typeof tenantCreateRequest>,
): Promise<Outcome & { apiKey?: string }> {
  if (!principal.privileged) throw new ForbiddenError(`user ${principal.userId} is not privileged`);
  const { tenantId, apiKey } = await insertTenantWithManager(
    input.TenantName,
    input.AdminLoginId,
    input.AdminPassword,
    principal,
    undefined,
    undefined,
    zoneFor(input.TimeZone),
  );
  return { id: tenantId, message: messages.created(input.TenantName), apiKey };
}

export async function insertTenantWithManager(
  tenantName: string,
  loginId: string,
  password: string | undefined,
  /** The caller, or the first start, whose tenant is written with the marker that records it (first-start.ts). */
  giver: Giver,
  name = loginId,
  givenApiKey?: string,
  timeZone?: string,
): Promise<{ tenantId: number; userId: number; apiKey: string }> {
  const tenantId = await repository.nextId('Tenant');
  const { user, apiKey } = await createUser(
    tenantId,
    { LoginId: loginId, Name: name, Password: password, TenantManager: true },
    giver,
    givenApiKey ?? true,
  );
  const tenant = { tenantId, tenantName, timeZone, createdAt: now() };
  await (giver === 'firstStart' ? putFirstTenant(tenant, user.userId) : repository.putTenant(tenant));
  return { tenantId, userId: user.userId, apiKey: apiKey as string };
}
