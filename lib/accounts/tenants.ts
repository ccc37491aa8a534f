import type * as z from 'zod';
import { now } from '../clock';
import { ForbiddenError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import type { Principal } from './principal';
import * as repository from './repository';
import type { tenantCreateRequest } from './schemas';
import { createUser } from './users';

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
  );
  return { id: tenantId, message: messages.created(input.TenantName), apiKey };
}

export async function insertTenantWithManager(
  tenantName: string,
  loginId: string,
  password: string | undefined,
  name = loginId,
  givenApiKey?: string,
): Promise<{ tenantId: number; userId: number; apiKey: string }> {
  const tenantId = await repository.nextId('Tenant');
  const { user, apiKey } = await createUser(
    tenantId,
    { LoginId: loginId, Name: name, Password: password, TenantManager: true },
    givenApiKey ?? true,
  );
  await repository.putTenant({ tenantId, tenantName, createdAt: now() });
  return { tenantId, userId: user.userId, apiKey: apiKey as string };
}
