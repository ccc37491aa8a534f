import { callerZone } from '../../accounts/caller-zone';
import type { Principal } from '../../accounts/principal';
import { OverLimitApiError } from '../../errors';
import { canOnRecord, grantedRecords } from '../../items/record-permissions';
import { findItem, recordPage } from '../../items/record-repository';
import { useApiCall } from '../../sites/api-limit';
import { closestSiteId } from '../../sites/closest-site-lookup';
import type { Site } from '../../sites/model';
import { canReadOrCreateSite, Permission, sitePermission } from '../../sites/permissions';
import { getSite } from '../../sites/repository';
import { siteView } from '../../sites/views';
import type { HostCallTable, ScriptCallContext } from '../host-calls';
import { toModel } from '../model';

/**
 * What `items.Get`, `items.GetSite` and `items.GetClosestSite` read, each with the permission checks the
 * API makes: another tenant's ids, what the caller may not read, and what does not exist are all null.
 */
export function itemReadCalls(context: ScriptCallContext): HostCallTable {
  const { principal } = context;
  const id = (value: unknown) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  return {
    'items.Get': async (target) => {
      const known = id(target);
      return known === undefined ? null : getItems(principal, known);
    },
    'items.GetSite': async (target) => {
      const known = id(target);
      return known === undefined ? null : getSiteModel(principal, known);
    },
    'items.GetClosestSite': async (name, origin) => {
      const known = id(origin) || context.site?.siteId;
      return known === undefined ? null : closestSiteModel(principal, known, String(name));
    },
  };
}

/** items.Get(id): a record as `[model]`, or a site's first page of records; null when nothing is readable. */
export async function getItems(principal: Principal, id: number): Promise<unknown[] | null> {
  const item = await findItem(principal.tenantId, id);
  if (!item) return null;
  const site = item.kind === 'site' ? item.site : await getSite(principal.tenantId, item.record.siteId);
  if (!site) return null;
  if (item.kind === 'record') {
    return (await canOnRecord(principal, site, item.record, Permission.Read))
      ? [toModel(site, item.record, callerZone(principal))]
      : null;
  }
  if (await canRead(principal, site)) {
    return (await recordPage(site, 0, PAGE_SIZE)).map((record) =>
      toModel(site, record, callerZone(principal)),
    );
  }
  // Without Read on the site, the records whose own rows let the caller read them (CONTRACT 5.1).
  const granted = await grantedRecords(principal, site, Permission.Read);
  return granted.length > 0
    ? granted.slice(0, PAGE_SIZE).map((record) => toModel(site, record, callerZone(principal)))
    : null;
}

/** items.GetSite(id): the site's apiModel, or null. */
export async function getSiteModel(principal: Principal, id: number): Promise<unknown | null> {
  const site = await getSite(principal.tenantId, id);
  return site && (await canRead(principal, site)) ? siteView(site, callerZone(principal)) : null;
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

/** The reference's Api.PageSize, as `items/{id}/get` pages a site. */
const PAGE_SIZE = 200;

async function canRead(principal: Principal, site: Site): Promise<boolean> {
  return ((await sitePermission(principal, site)) & Permission.Read) !== 0;
}

function withinApiLimit(site: Site): Promise<boolean> {
  return useApiCall(site).then(
    () => true,
    (error: unknown) => (error instanceof OverLimitApiError ? false : Promise.reject(error)),
  );
}
