import type { Principal } from '../accounts/principal';
import { tenantOfPrincipal } from '../accounts/repository';
import { requireManager } from '../accounts/users';
import { BadRequestError } from '../errors';
import type { Site } from './model';
import { PERMISSION_ENTRY } from './model';
import { ALL_PERMISSIONS, Permission, requirePermission, siteInTenant } from './permissions';
import { getSite } from './repository';
import { lineage } from './tree';

/**
 * Where a site may be created or moved to. Top level: tenant managers (and privileged users) only. Into a
 * folder: ManageSite on that folder. The reference shows site creation in a folder only to those who may
 * manage it; mere Create there is for records, and must not let a record writer restructure the tree.
 */
export async function requireContainer(principal: Principal, parentId: number): Promise<Site | undefined> {
  if (parentId === 0) {
    requireManager(principal);
    return undefined;
  }
  const parent = await siteInTenant(principal, parentId);
  if (parent.referenceType !== 'Sites') throw new BadRequestError(`site ${parentId} is not a folder`);
  await requirePermission(principal, parent, Permission.ManageSite);
  return parent;
}

/**
 * The InheritPermission to store. `requested` is the site's own id (or 0: its own), or a site above it,
 * whose permission source is then taken; undefined keeps `current`, or inherits from the parent when the
 * site inherited before a move, and by default for a new site: from the parent if any, else itself.
 */
export async function inheritanceOf(
  site: Pick<Site, 'siteId' | 'tenantId' | 'parentId'>,
  requested: number | undefined,
  current?: number,
): Promise<number> {
  if (requested === 0 || requested === site.siteId) return site.siteId;
  if (requested === undefined && current === site.siteId) return site.siteId;
  if (requested === undefined && current !== undefined && site.parentId === 0) return site.siteId;
  const from = requested ?? site.parentId;
  if (from === 0) return site.siteId;
  const above = await lineage(site.tenantId, site.parentId);
  if (!above.includes(from)) throw new BadRequestError(`InheritPermission ${from} is not a site above`);
  const source = await getSite(site.tenantId, from);
  return source?.inheritPermission ?? site.siteId;
}

/**
 * Users, groups and depts named in Permissions (or a record's RecordPermissions: `property`) must be the
 * tenant's own; `User,-1` (every user) passes as given, `Group,-1` and `Dept,-1` are refused.
 */
export async function checkPermissionEntries(
  principal: Principal,
  entries: readonly string[],
  property = 'Permissions',
): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      const [, kind, id, bits] = PERMISSION_ENTRY.exec(entry) ?? [];
      if (kind === undefined)
        throw new BadRequestError(`${entry}: not "User|Group|Dept,<id>,<bits>"`, property);
      if (Number(bits) > ALL_PERMISSIONS)
        throw new BadRequestError(`${entry}: bits over ${ALL_PERMISSIONS}`, property);
      if (id === '-1') {
        // -1 is every user; no group or dept has that id, so such an entry would grant nobody.
        if (kind !== 'User') throw new BadRequestError(`${entry}: only User,-1 names everyone`, property);
        return;
      }
      if ((await tenantOfPrincipal(kind, Number(id))) !== principal.tenantId)
        throw new BadRequestError(`${entry}: not of the tenant`, property);
    }),
  );
}

/** The creator's Manager entry (511), replacing any other entry of theirs. */
export function withCreator(entries: readonly string[], creator: number): string[] {
  const mine = `User,${creator},`;
  return [...entries.filter((entry) => !entry.startsWith(mine)), `User,${creator},${ALL_PERMISSIONS}`];
}
