import type { Principal } from '../../accounts/principal';
import type { Site } from '../../sites/model';
import { Permission, requirePermission } from '../../sites/permissions';
import { requireContainer } from '../../sites/rules';
import { siteCreateRequest, siteUpdateRequest } from '../../sites/schemas';
import { createSite, deleteSite, updateSite } from '../../sites/sites';
import { nextItemId } from '../../sites/store';
import type { ScriptCallContext } from '../host-calls';
import type { FlatModel } from '../model';
import { parsed, siteBodyOf } from './write-input';

/**
 * The site side of `items.Create`, `Update` and `Delete` (reference/pleasanter-script-objects.md 1: a
 * create under a folder or the top level, an update or delete whose id is a site), through createsite,
 * updatesite and deletesite with their checks. Held in a Before condition like the record writes
 * (lib/scripts/calls/item-writes.ts), after the checks that can be made first.
 */

/**
 * The new site's id. Held, the id is reserved now and the site is created under it with the save, as a
 * held record create's is, so that the script can read `m.SiteId` (it cannot read the site itself yet).
 */
export async function createSiteBy(
  context: ScriptCallContext,
  writer: Principal,
  parentId: number,
  body: Record<string, unknown>,
  model: FlatModel | undefined,
): Promise<{ id: number; held: boolean }> {
  const input = parsed(siteCreateRequest, model ? siteBodyOf(model) : body);
  if (!context.hold) return { id: (await createSite(writer, parentId, input)).id, held: false };
  await requireContainer(writer, parentId);
  const id = await nextItemId();
  context.hold(() => createSite(writer, parentId, input, id).then(() => undefined));
  return { id, held: true };
}

export async function updateSiteBy(
  context: ScriptCallContext,
  writer: Principal,
  site: Site,
  body: Record<string, unknown>,
  model: FlatModel | undefined,
): Promise<true> {
  const input = parsed(siteUpdateRequest, model ? siteBodyOf(model, site) : body);
  if (!context.hold) await updateSite(writer, site.siteId, input);
  else {
    await requirePermission(writer, site, Permission.ManageSite);
    context.hold(() => updateSite(writer, site.siteId, input).then(() => undefined));
  }
  return true;
}

/** The site, its subtree and their records. */
export async function deleteSiteBy(context: ScriptCallContext, site: Site): Promise<true> {
  const { principal } = context;
  if (!context.hold) await deleteSite(principal, site.siteId);
  else {
    await requirePermission(principal, site, Permission.ManageSite);
    context.hold(() => deleteSite(principal, site.siteId).then(() => undefined));
  }
  return true;
}
