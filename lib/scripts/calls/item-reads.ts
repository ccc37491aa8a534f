import { callerZone } from '../../accounts/caller-zone';
import type { Principal } from '../../accounts/principal';
import { OverLimitApiError } from '../../errors';
import { readItemPage } from '../../items/record-get';
import { recordIdsMatching } from '../../search/query';
import { useApiCall } from '../../sites/api-limit';
import { closestSiteId } from '../../sites/closest-site-lookup';
import { loadIndex } from '../../sites/index-store';
import type { Site } from '../../sites/model';
import { siteIdsGrouped, siteIdsNamed } from '../../sites/name-index';
import { canReadOrCreateSite } from '../../sites/permissions';
import { getSite, sitesOfTenant } from '../../sites/repository';
import { siteView } from '../../sites/views';
import type { HostCallTable, ScriptCallContext } from '../host-calls';
import { toModel } from '../model';
import { itemAggregateCalls } from './item-aggregates';
import { canRead, idOf, logRefusal, refused, scriptBody } from './script-body';

/**
 * What the reading members of `items` answer (CONTRACT 13, reference/pleasanter-script-objects.md 1),
 * each with the permission checks the API makes, as the script's user: `Get` and the `GetSite*` family
 * answer arrays (empty when nothing is readable), `GetClosestSite` a model or null, the aggregates a
 * number (lib/scripts/calls/item-aggregates.ts).
 */
export function itemReadCalls(context: ScriptCallContext): HostCallTable {
  const { principal } = context;
  const sitesBy =
    (find: (principal: Principal, value: string) => Promise<number[]>) => async (value: unknown) =>
      typeof value === 'string' && value !== '' ? siteModels(principal, await find(principal, value)) : [];
  return {
    'items.Get': async (target, view) => {
      const known = idOf(target);
      return known === undefined ? [] : getItems(context, known, view);
    },
    'items.GetSite': async (target) => {
      const known = idOf(target);
      return known === undefined ? [] : siteModels(principal, [known]);
    },
    'items.GetSiteByName': sitesBy((caller, name) => indexed(caller, (index) => siteIdsNamed(index, name))),
    'items.GetSiteByGroupName': sitesBy((caller, name) =>
      indexed(caller, (index) => siteIdsGrouped(index, name)),
    ),
    'items.GetSiteByTitle': sitesBy(async (caller, title) =>
      (await sitesOfTenant(caller.tenantId))
        .filter((site) => site.title === title)
        .map((site) => site.siteId),
    ),
    'items.GetClosestSite': async (name, origin) => {
      const known = idOf(origin) || context.site?.siteId;
      return known === undefined ? null : closestSiteModel(principal, known, String(name));
    },
    ...itemAggregateCalls(context),
  };
}

/**
 * items.Get(id, view): `items/{id}/get` as the script's user with the body `view`, its records as models:
 * a record (0 or 1, as its View selects it), or the page of a table's records and its integrated sites'
 * (at most 200: page with Offset), each loaded through the target site's WhenloadingRecord scripts one
 * level deeper. A folder, what the user may not read, and a body or View that cannot be applied are empty.
 */
export async function getItems(context: ScriptCallContext, id: number, view: unknown): Promise<unknown[]> {
  const body = await scriptBody(context, view);
  if (!body.ok) {
    logRefusal(context, 'items.Get', body.problem);
    return [];
  }
  const read = await readItemPage(
    body.principal,
    id,
    body.input,
    context.nested('get', id),
    recordIdsMatching,
  ).catch(refused(context, 'items.Get', undefined));
  if (!read || read.kind === 'folder') return [];
  if (read.plan) {
    logRefusal(context, 'items.Get', 'View.ApiDataType: KeyValues has no apiModel form');
    return [];
  }
  const zone = callerZone(body.principal);
  const sites = new Map(read.sites.map((site) => [site.siteId, site]));
  return read.page.map((record) => toModel(sites.get(record.siteId) ?? read.site, record, zone));
}

/**
 * The apiModels of the sites (items.GetSite and its family), in the order given: each the user may read
 * and within its daily API limit, as the reference's GetSiteByServerScript checks. A site the user may
 * not read is dropped, where the reference answers an empty model (SiteId 0) in its place: a script that
 * goes on with `sites[0].SiteId` would then read or write site 0.
 */
async function siteModels(principal: Principal, ids: readonly number[]): Promise<unknown[]> {
  const models: unknown[] = [];
  for (const id of ids) {
    const site = await getSite(principal.tenantId, id);
    if (site && (await canRead(principal, site)) && (await withinApiLimit(site))) {
      models.push(siteView(site, callerZone(principal)));
    }
  }
  return models;
}

/** Ids the tenant's name index finds (kept by the Sites stream, as GetClosestSite's). */
async function indexed(
  principal: Principal,
  find: (index: NonNullable<Awaited<ReturnType<typeof loadIndex>>>) => number[],
): Promise<number[]> {
  const index = await loadIndex(principal.tenantId);
  return index ? find(index) : [];
}

/**
 * items.GetClosestSite(name, originId) (reference 2.4): the nearest site of that name seen from the origin,
 * as items.GetSite shows it, counted against that site's daily API limit; null when the name is empty,
 * nothing is found, a permission is missing, or the found site is over its limit.
 */
export async function closestSiteModel(
  principal: Principal,
  originId: number,
  name: string,
): Promise<unknown | null> {
  if (!name) return null;
  const found = await closestSiteId(principal, originId, name);
  const site = found === -1 ? undefined : await getSite(principal.tenantId, found);
  if (!site || !(await canReadOrCreateSite(principal, site))) return null;
  return (await withinApiLimit(site)) ? siteView(site, callerZone(principal)) : null;
}

function withinApiLimit(site: Site): Promise<boolean> {
  return useApiCall(site).then(
    () => true,
    (error: unknown) => (error instanceof OverLimitApiError ? false : Promise.reject(error)),
  );
}
