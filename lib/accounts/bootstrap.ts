import { now } from '../clock';
import { settings } from '../config/settings';
import { firstStartRecorded, recordFirstStart, startedBeforeMarker } from './first-start';
import { findUserIdByLoginId, getUser, updateUser } from './repository';
import { isApiKeyFormat, newPassword } from './secrets';
import { insertTenantWithManager } from './tenants';

export interface BootstrapOptions {
  /** KIROKU_ADMIN_API_KEY: 128 lowercase hex characters, or undefined to generate one. */
  readonly apiKey?: string;
  /** KIROKU_ADMIN_PASSWORD, or undefined to generate one. */
  readonly password?: string;
}

export interface BootstrapResult {
  readonly created: boolean;
  /** The administrator's login id: the first of Security.PrivilegedUsers. */
  readonly loginId: string;
  /** Set only when this call created the administrator: the caller shows them once. */
  readonly apiKey?: string;
  readonly password?: string;
}

/**
 * First start (CONTRACT section 7): tenant 1 and its user `Administrator`, privileged and tenant manager,
 * written with a marker that records the first start. Does nothing once the marker is there, whatever
 * became of the administrator since (renamed, deleted); a database from before the marker gets the marker.
 */
export async function bootstrapAdministrator(options: BootstrapOptions = {}): Promise<BootstrapResult> {
  const loginId = settings().Security.PrivilegedUsers[0] ?? 'Administrator';
  if (options.apiKey !== undefined && !isApiKeyFormat(options.apiKey)) {
    throw new Error('KIROKU_ADMIN_API_KEY must be 128 lowercase hexadecimal characters');
  }
  if (await firstStartRecorded()) return { created: false, loginId };
  if (await startedBeforeMarker(loginId)) {
    await grantLegacyAdministrator(loginId);
    await recordFirstStart();
    return { created: false, loginId };
  }
  const password = options.password ?? newPassword();
  const { apiKey } = await insertTenantWithManager(
    'Kiroku',
    loginId,
    password,
    'firstStart',
    loginId,
    options.apiKey,
  );
  return { created: true, loginId, apiKey, password };
}

/**
 * A database from before privilege was recorded on the user: the first start's administrator (tenant 1,
 * the first privileged login id) keeps its privilege; no other user gets it without a privileged giver.
 */
async function grantLegacyAdministrator(loginId: string): Promise<void> {
  const userId = await findUserIdByLoginId(loginId);
  const user = userId === undefined ? undefined : await getUser(userId);
  if (user?.tenantId !== 1 || user.privilegeGranted) return;
  await updateUser(user, { ...user, privilegeGranted: true, updatedAt: now() });
}
