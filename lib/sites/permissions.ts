import type { Principal } from '../accounts/principal';
import { deptGroupIdsOf, getDept, groupIdsOf } from '../accounts/repository';
import { ForbiddenError, NotFoundError } from '../errors';
import { PERMISSION_ENTRY, type Site } from './model';
import { getSite } from './repository';

/** The reference's bit flags (reference/pleasanter-behaviour.md 7.6). */
export const Permission = {
  Read: 1,
  Create: 2,
  Update: 4,
  Delete: 8,
  SendMail: 16,
  Export: 32,
  Import: 64,
  ManageSite: 128,
  ManagePermission: 256,
} as const;

/** Manager: every flag a site entry can carry; what a site's creator gets. */
export const ALL_PERMISSIONS = 511;

// Inheritance chains are as deep as the tree at most; the cap only stops a corrupt cycle.
const MAX_HOPS = 64;

/**
 * The caller's permission on a site: the OR of the entries of its InheritPermission site (followed until a
 * site that is its own source) that match the caller's user id, their dept, their groups (their own and
 * their dept's), or `User,-1`. A disabled or deleted dept matches nothing. Tenant managers and privileged
 * users hold every flag in their tenant; another tenant's site gives nothing.
 */
export async function sitePermission(principal: Principal, site: Site): Promise<number> {
  if (site.tenantId !== principal.tenantId) return 0;
  if (principal.tenantManager || principal.privileged) return ALL_PERMISSIONS;
  let source: Site | undefined = site;
  for (let hop = 0; source && source.inheritPermission !== source.siteId && hop < MAX_HOPS; hop++) {
    source = await getSite(site.tenantId, source.inheritPermission);
  }
  if (!source || source.inheritPermission !== source.siteId) return 0;
  return permissionOf(source.permissions, principal.userId, await membershipOf(principal));
}

/**
 * The caller's bits from permission rows held outside a site (a record's own rows, CONTRACT 5.1): the OR of
 * the rows that name them, their dept, one of their groups, or every user. Tenant managers and privileged
 * users hold every flag, as on sites.
 */
export async function rowsPermission(principal: Principal, rows: readonly string[]): Promise<number> {
  if (principal.tenantManager || principal.privileged) return ALL_PERMISSIONS;
  if (rows.length === 0) return 0;
  return permissionOf(rows, principal.userId, await membershipOf(principal));
}

/** What a caller is a member of, besides being themselves. */
export interface Membership {
  /** Their enabled dept. */
  readonly deptId?: number;
  /** Their groups, directly or through that dept. */
  readonly groupIds: readonly number[];
}

/** The OR of the entries that name the user, their dept, one of their groups, or every user. */
export function permissionOf(entries: readonly string[], userId: number, membership: Membership): number {
  const groups = new Set(membership.groupIds);
  let bits = 0;
  for (const entry of entries) {
    const match = PERMISSION_ENTRY.exec(entry);
    if (!match) continue;
    const [, kind, id, value] = match;
    const matches =
      (kind === 'User' && (Number(id) === userId || id === '-1')) ||
      (kind === 'Group' && groups.has(Number(id))) ||
      (kind === 'Dept' && membership.deptId !== undefined && Number(id) === membership.deptId);
    if (matches) bits |= Number(value);
  }
  return bits;
}

/** Refuses with 403 unless the caller holds every flag of `needed` on the site. */
export async function requirePermission(principal: Principal, site: Site, needed: number): Promise<void> {
  const bits = await sitePermission(principal, site);
  if ((bits & needed) !== needed) {
    throw new ForbiddenError(`user ${principal.userId} lacks ${needed} on site ${site.siteId} (has ${bits})`);
  }
}

/** A site of the caller's tenant that they may read (else 404) and manage (else 403). */
export async function requireSiteManager(principal: Principal, siteId: number): Promise<Site> {
  const site = await siteInTenant(principal, siteId);
  const bits = await sitePermission(principal, site);
  if (!(bits & Permission.Read))
    throw new NotFoundError(`user ${principal.userId} may not read site ${siteId}`);
  if (!(bits & Permission.ManageSite))
    throw new ForbiddenError(`user ${principal.userId} lacks ManageSite on site ${siteId} (has ${bits})`);
  return site;
}

/** A site of the caller's tenant, or 404: another tenant's ids behave as if they did not exist. */
export async function siteInTenant(principal: Principal, siteId: number): Promise<Site> {
  const site = await getSite(principal.tenantId, siteId);
  if (!site) throw new NotFoundError(`no site ${siteId} in tenant ${principal.tenantId}`);
  return site;
}

/**
 * What site lookup (GetClosestSiteId, items.GetClosestSite) asks of the origin and of the site it finds:
 * read or create, at site level only (record permissions are not consulted).
 */
export async function canReadOrCreateSite(principal: Principal, site: Site | undefined): Promise<boolean> {
  if (!site) return principal.privileged;
  const bits = await sitePermission(principal, site);
  return (bits & (Permission.Read | Permission.Create)) !== 0;
}

// A principal is built per request (lib/accounts/authentication.ts), so this keeps a user's dept and groups
// for the request's several checks and no longer.
const membershipCache = new WeakMap<Principal, Promise<Membership>>();

export function membershipOf(principal: Principal): Promise<Membership> {
  let membership = membershipCache.get(principal);
  if (!membership) {
    membership = loadMembership(principal);
    membershipCache.set(principal, membership);
  }
  return membership;
}

async function loadMembership(principal: Principal): Promise<Membership> {
  const { deptId } = principal;
  const [own, dept] = await Promise.all([
    groupIdsOf(principal.userId),
    deptId === undefined ? undefined : getDept(deptId),
  ]);
  if (deptId === undefined || !dept || dept.disabled || dept.tenantId !== principal.tenantId) {
    return { groupIds: own };
  }
  const throughDept = await deptGroupIdsOf(deptId);
  return { deptId, groupIds: [...new Set([...own, ...throughDept])] };
}
