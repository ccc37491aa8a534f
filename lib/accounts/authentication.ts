import { now } from '../clock';
import type { User } from './model';
import type { Principal } from './principal';
import { isPrivilegedUser } from './privilege';
import { findUserIdByApiKeyHash, getLogin, getTenant, getUser } from './repository';
import { hashToken } from './secrets';

/**
 * Who a credential belongs to. Lookups are cached per warm instance for AUTH_CACHE_MS, so that a request
 * costs no extra DynamoDB reads: a deleted key, a signed-out cookie or a disabled user stops working at once
 * on the instance that made the change and within that time everywhere else.
 */
export const AUTH_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly user: User | undefined;
  /** The zone the user's dates are in: their own, else their tenant's (read with the user, cached alike). */
  readonly zone?: string;
  /** For logins: the login's own end, in epoch milliseconds. */
  readonly validUntil: number;
  readonly cachedAt: number;
}

const cache = new Map<string, Entry>();

export async function principalForApiKey(apiKey: string): Promise<Principal | undefined> {
  const hash = hashToken(apiKey);
  const entry = await cached(`key:${hash}`, async () => {
    const userId = await findUserIdByApiKeyHash(hash);
    const user = userId === undefined ? undefined : await getUser(userId);
    const found = user?.apiKeyHash === hash ? user : undefined;
    return { user: found, zone: await zoneOf(found), validUntil: Number.POSITIVE_INFINITY };
  });
  return toPrincipal(entry, 'apiKey');
}

export async function principalForLoginToken(token: string): Promise<Principal | undefined> {
  const hash = hashToken(token);
  const entry = await cached(`login:${hash}`, async () => {
    const login = await getLogin(hash);
    const user = login ? await getUser(login.userId) : undefined;
    // A password change or disabling ended the logins made before it (CONTRACT section 5).
    const ended = user?.loginsNotBefore !== undefined && (login?.issuedAt ?? 0) < user.loginsNotBefore;
    const found = ended ? undefined : user;
    return { user: found, zone: await zoneOf(found), validUntil: login ? login.expiresAt * 1000 : 0 };
  });
  return toPrincipal(entry, 'cookie', hash);
}

async function zoneOf(user: User | undefined): Promise<string | undefined> {
  if (!user || user.timeZone) return user?.timeZone;
  return (await getTenant(user.tenantId))?.timeZone;
}

/** Forgets every cached lookup: after a change to a user, a key or a login on this instance. */
export function forgetCredentials(): void {
  cache.clear();
}

async function cached(key: string, load: () => Promise<Omit<Entry, 'cachedAt'>>): Promise<Entry> {
  const hit = cache.get(key);
  if (hit && now() - hit.cachedAt < AUTH_CACHE_MS) return hit;
  const entry = { ...(await load()), cachedAt: now() };
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.delete(key);
  cache.set(key, entry);
  return entry;
}

function toPrincipal(entry: Entry, via: Principal['via'], loginHash?: string): Principal | undefined {
  const { user } = entry;
  if (!user || user.disabled || now() >= entry.validUntil) return undefined;
  return {
    ...principalOf(user, via),
    ...(entry.zone && { timeZone: entry.zone }),
    ...(loginHash && { loginHash }),
  };
}

export function principalOf(user: User, via: Principal['via']): Principal {
  return {
    tenantId: user.tenantId,
    userId: user.userId,
    loginId: user.loginId,
    name: user.name,
    tenantManager: user.tenantManager,
    deptId: user.deptId,
    ...(user.language && { language: user.language }),
    privileged: isPrivilegedUser(user),
    via,
  };
}
