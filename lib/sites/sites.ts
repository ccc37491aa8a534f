import type * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { BadRequestError } from '../errors';

import { messages } from '../messages';
import type { Outcome } from '../results';
import type { Site } from './model';
import { Permission, requirePermission, siteInTenant } from './permissions';
import * as repository from './repository';
import { checkPermissionEntries, inheritanceOf, lineage, requireContainer, withCreator } from './rules';
import type { siteCreateRequest, siteUpdateRequest } from './schemas';
import { nextItemId } from './store';
import { siteView } from './views';

/** `items/{parentId}/createsite`: parentId 0 is the top level. */
export async function createSite(
  principal: Principal,
  parentId: number,
  input: z.infer<typeof siteCreateRequest>,
): Promise<Outcome> {
  await requireContainer(principal, parentId);
  await checkPermissionEntries(principal, input.Permissions ?? []);
  const siteId = await nextItemId();
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
    siteSettings: input.SiteSettings ?? {},
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
    ver: 1,
  };
  await repository.insertSite(site);
  return { id: siteId, message: messages.created(site.title) };
}

export async function readSite(principal: Principal, siteId: number): Promise<Record<string, unknown>> {
  const site = await siteInTenant(principal, siteId);
  await requirePermission(principal, site, Permission.Read);
  return siteView(site);
}

/** ManageSite; changing Permissions or InheritPermission also needs ManagePermission. */
export async function updateSite(
  principal: Principal,
  siteId: number,
  input: z.infer<typeof siteUpdateRequest>,
): Promise<Outcome> {
  const before = await siteInTenant(principal, siteId);
  await requirePermission(principal, before, Permission.ManageSite);
  if (input.Permissions !== undefined || input.InheritPermission !== undefined) {
    await requirePermission(principal, before, Permission.ManagePermission);
    await checkPermissionEntries(principal, input.Permissions ?? []);
  }
  if (input.ReferenceType !== undefined && input.ReferenceType !== before.referenceType) {
    throw new BadRequestError('a site keeps its ReferenceType');
  }
  const parentId = input.ParentId ?? before.parentId;
  if (parentId !== before.parentId) {
    await requireContainer(principal, parentId);
    if ((await lineage(principal.tenantId, parentId)).includes(siteId)) {
      throw new BadRequestError(`site ${siteId} cannot move under its own subtree`);
    }
  }
  const moved = { siteId, tenantId: principal.tenantId, parentId };
  const after: Site = {
    ...before,
    title: input.Title ?? before.title,
    siteName: input.SiteName ?? before.siteName,
    siteGroupName: input.SiteGroupName ?? before.siteGroupName,
    parentId,
    inheritPermission:
      input.InheritPermission === undefined && parentId === before.parentId
        ? before.inheritPermission
        : await inheritanceOf(moved, input.InheritPermission, before.inheritPermission),
    permissions: input.Permissions ?? before.permissions,
    siteSettings: input.SiteSettings ?? before.siteSettings,
    updator: principal.userId,
    updatedAt: now(),
    ver: before.ver + 1,
  };
  await repository.updateSite(before, after);
  return { id: siteId, message: messages.updated(after.title) };
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
  const levels: number[][] = [[siteId]];
  await repository.markDeleting(tenantId, siteId);
  for (let level = levels[0] ?? []; level.length > 0; ) {
    const children = (await Promise.all(level.map((id) => repository.childSiteIds(tenantId, id)))).flat();
    await Promise.all(children.map((id) => repository.markDeleting(tenantId, id)));
    levels.push(children);
    level = children;
  }
  for (const level of levels.reverse()) {
    for (let index = 0; index < level.length; index += 4) {
      await Promise.all(
        level.slice(index, index + 4).map(async (id) => {
          await repository.deleteRecordsOf(tenantId, id);
          await repository.deleteSiteItems(tenantId, id);
        }),
      );
    }
  }
  return { id: siteId, message: messages.deleted(site.title) };
}
