import type * as z from 'zod';
import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { BadRequestError, NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { retryOnConcurrentChange } from '../storage/retry';
import type { Site } from './model';
import { Permission, requirePermission, siteInTenant } from './permissions';
import * as repository from './repository';
import { checkPermissionEntries, inheritanceOf, requireContainer, withCreator } from './rules';
import type { siteCreateRequest, siteUpdateRequest } from './schemas';
import { refuseUnappliedSettings } from './site-settings-check';
import { nextItemId } from './store';
import { storedSiteSettings } from './stored-settings';
import { type Ancestor, ancestry, MAX_TREE_DEPTH, subtreeLevels } from './tree';
import { siteView } from './views';

/** `items/{parentId}/createsite`: parentId 0 is the top level. */
export async function createSite(
  principal: Principal,
  parentId: number,
  input: z.infer<typeof siteCreateRequest>,
  /** An id reserved beforehand with nextItemId (a server script's create held for the save it precedes). */
  reservedId?: number,
): Promise<Outcome> {
  refuseUnappliedSettings(input.SiteSettings);
  await requireContainer(principal, parentId);
  if ((await ancestry(principal.tenantId, parentId)).length >= MAX_TREE_DEPTH) {
    throw new BadRequestError(`site ${parentId} is ${MAX_TREE_DEPTH} levels deep: no site goes below it`);
  }
  await checkPermissionEntries(principal, input.Permissions ?? []);
  const { tenantId } = principal;
  const siteSettings = await storedSiteSettings(tenantId, input.ReferenceType, 0, input.SiteSettings ?? {});
  const siteId = reservedId ?? (await nextItemId());
  const time = now();
  const site: Site = {
    siteId,
    tenantId: principal.tenantId,
    title: input.Title,
    referenceType: input.ReferenceType,
    siteName: input.SiteName,
    siteGroupName: input.SiteGroupName,
    parentId,
    inheritPermission: await inheritanceOf(
      { siteId, tenantId: principal.tenantId, parentId },
      input.InheritPermission,
    ),
    permissions: withCreator(input.Permissions ?? [], principal.userId),
    siteSettings: { ...siteSettings, SiteId: siteId },
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
    ver: 1,
  };
  await retryOnConcurrentChange(() => repository.insertSite(site));
  return { id: siteId, message: messages.created(site.title) };
}

export async function readSite(principal: Principal, siteId: number): Promise<Record<string, unknown>> {
  const site = await siteInTenant(principal, siteId);
  await requirePermission(principal, site, Permission.Read);
  return { Data: siteView(site, callerZone(principal)) };
}

/**
 * ManageSite; changing Permissions or InheritPermission also needs ManagePermission, and so does a move,
 * which changes whose permissions the site inherits (CONTRACT section 5), with Create on the new parent.
 * Read, checks and write run again when another request changed the site or the tree above its new
 * parent in between: a move that would now close a cycle is then refused like any other.
 */
export async function updateSite(
  principal: Principal,
  siteId: number,
  input: z.infer<typeof siteUpdateRequest>,
): Promise<Outcome> {
  refuseUnappliedSettings(input.SiteSettings);
  const title = await retryOnConcurrentChange(() => applySiteUpdate(principal, siteId, input));
  return { id: siteId, message: messages.updated(title) };
}

async function applySiteUpdate(
  principal: Principal,
  siteId: number,
  input: z.infer<typeof siteUpdateRequest>,
): Promise<string> {
  const before = await siteInTenant(principal, siteId);
  if (before.deleting) throw new NotFoundError(`site ${siteId} is being deleted`);
  await requirePermission(principal, before, Permission.ManageSite);
  const parentId = input.ParentId ?? before.parentId;
  const moving = parentId !== before.parentId;
  if (input.Permissions !== undefined || input.InheritPermission !== undefined || moving) {
    await requirePermission(principal, before, Permission.ManagePermission);
  }
  if (input.Permissions !== undefined) await checkPermissionEntries(principal, input.Permissions);
  if (input.ReferenceType !== undefined && input.ReferenceType !== before.referenceType) {
    throw new BadRequestError('a site keeps its ReferenceType');
  }
  const above = moving ? await newAncestry(principal, siteId, parentId) : [];
  const moved = { siteId, tenantId: principal.tenantId, parentId };
  const after: Site = {
    ...before,
    title: input.Title ?? before.title,
    siteName: input.SiteName ?? before.siteName,
    siteGroupName: input.SiteGroupName ?? before.siteGroupName,
    parentId,
    inheritPermission:
      input.InheritPermission === undefined && !moving
        ? before.inheritPermission
        : await inheritanceOf(moved, input.InheritPermission, before.inheritPermission),
    permissions: input.Permissions ?? before.permissions,
    siteSettings: input.SiteSettings
      ? await storedSiteSettings(principal.tenantId, before.referenceType, siteId, input.SiteSettings)
      : before.siteSettings,
    updator: principal.userId,
    updatedAt: now(),
    ver: before.ver + 1,
  };
  await repository.updateSite(before, after, above);
  return after.title;
}

/** Where a move goes: a folder the caller may create sites in, not below the site itself. */
async function newAncestry(principal: Principal, siteId: number, parentId: number): Promise<Ancestor[]> {
  const parent = await requireContainer(principal, parentId);
  if (parent) await requirePermission(principal, parent, Permission.Create);
  const above = await ancestry(principal.tenantId, parentId);
  if (above.some((ancestor) => ancestor.siteId === siteId)) {
    throw new BadRequestError(`site ${siteId} cannot move under its own subtree`);
  }
  if (above.length >= MAX_TREE_DEPTH) {
    throw new BadRequestError(`site ${parentId} is ${MAX_TREE_DEPTH} levels deep: no site goes below it`);
  }
  return above;
}

/**
 * Removes the site, its subtree and all their records. Every site is flagged first, so nothing new lands
 * in them; then each site's records go in batches and the site item after them, the deepest sites first
 * and this site last: a retry after a timeout finds what is left and finishes the job.
 */
export async function deleteSite(principal: Principal, siteId: number): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  await requirePermission(principal, site, Permission.ManageSite);
  const { tenantId } = principal;
  const levels = await subtreeLevels(tenantId, siteId, async (ids) => {
    await Promise.all(ids.map((id) => repository.markDeleting(tenantId, id)));
  });
  // Every site and record of the subtree goes to the recycle bin, restored together by a restore of siteId.
  const binning = { deleter: principal.userId, siteDeletion: siteId };
  for (const level of levels.reverse()) {
    for (let index = 0; index < level.length; index += 4) {
      await Promise.all(
        level.slice(index, index + 4).map(async (id) => {
          await repository.deleteRecordsOf(tenantId, id, binning);
          const subtree = id === siteId ? { subtree: levels.toReversed().flat() } : {};
          await repository.deleteSiteItems(tenantId, id, { ...binning, ...subtree });
        }),
      );
    }
  }
  return { id: siteId, message: messages.deleted(site.title) };
}
