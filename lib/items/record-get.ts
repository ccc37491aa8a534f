import { callerLanguage } from '../accounts/caller-language';
import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { NotFoundError, UnsupportedInputError } from '../errors';
import type { Reading } from '../results';
import { useApiCall } from '../sites/api-limit';
import { recordHolders, type Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant } from '../sites/permissions';
import { siteView } from '../sites/views';
import { recordHistorySelection, siteHistorySelection, tableTypeOf } from './history';
import { keyValuesOf, planKeyValues } from './key-values';
import type { ItemRecord } from './model';
import { canOnRecord, readableInSite } from './record-permissions';
import * as repository from './record-repository';
import { loadingAll, noScripts, type RecordScripts } from './record-scripts';
import { type Selection, selectVisible } from './record-select';
import { deletedRecordById, siteDeletedSelection } from './recycle-bin';
import type { Column } from './view/columns';
import { viewJoins } from './view/joins';
import {
  type CompiledView,
  compileView,
  joinedNamesIn,
  type RecordSearch,
  sorterNamesIn,
  withSearch,
} from './view/view';
import { legacyRecordView, recordView } from './views';

/** A table read always has its access (a caller without any is refused above): this only satisfies the type. */
const noAccess = { sites: [], siteIds: [], readable: [], granted: [] };

/** The reference's Api.PageSize: the most records one read returns, and the page size otherwise. */
export const PAGE_SIZE = 200;

export interface RecordGetInput {
  readonly ApiVersion?: number | string;
  readonly TableType?: unknown;
  readonly Offset?: number;
  readonly PageSize?: number;
  readonly View?: Record<string, unknown> | null;
}

/** PageSize from 1 to 199 is kept; anything else (0, negative, 200 and more, none) is 200. */
export function effectivePageSize(pageSize: number | undefined): number {
  return pageSize !== undefined && pageSize > 0 && pageSize < PAGE_SIZE ? pageSize : PAGE_SIZE;
}

/** ApiDataType: Default (0, or none) or KeyValues (1), by name in any case or number. */
function keyValuesAsked(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  const text = String(value).toLowerCase();
  if (text === 'keyvalues' || text === '1') return true;
  if (text === 'default' || text === '0') return false;
  throw new UnsupportedInputError(`View.ApiDataType: ${JSON.stringify(value)} is not Default or KeyValues.`);
}

/**
 * The caller's View compiled for the site. A Search, and a parent's column (`ClassA~7,ClassB`, whose
 * parents `joins` holds), are taken only where the caller hands them on (the record get); elsewhere
 * (bulkdelete, upsert) they are refused, never ignored.
 */
export function compileViewFor(
  principal: Principal,
  site: Site,
  view: RecordGetInput['View'],
  searchable = false,
  joins?: ReadonlyMap<string, Column>,
): CompiledView {
  if (!joins) {
    const [joined] = joinedNamesIn(view ?? undefined);
    if (joined !== undefined)
      throw new UnsupportedInputError(`View: ${joined}: a parent's column filters and sorts only on get.`);
  }
  const compiled = compileView(site, view ?? undefined, {
    userId: principal.userId,
    zone: callerZone(principal),
    now: now(),
    language: callerLanguage(principal),
    ...(joins && { joins }),
  });
  if (compiled.search !== undefined && !searchable) {
    throw new UnsupportedInputError('View.Search: full-text search is not available on this operation.');
  }
  return compiled;
}

/**
 * `items/{id}/get`: a folder answers itself as one object; a table answers the page of its records (and
 * its integrated sites' records) that the View selects, in the View's order; a record answers itself
 * when the View selects it, else an empty page (reference 2, trap 6).
 */
export async function readItem(
  principal: Principal,
  id: number,
  input: RecordGetInput,
  scripts: RecordScripts = noScripts,
  search?: RecordSearch,
): Promise<Reading> {
  const read = await readItemPage(principal, id, input, scripts, search);
  if (read.kind === 'folder') return { response: { Data: read.folder } };
  const { site, page, plan, offset, pageSize, limits } = read;
  const zone = callerZone(principal);
  // Each item echoes the ApiVersion asked; below 1.1 the fields are flat (reference 1.2).
  const version = input.ApiVersion === undefined ? 1.1 : Number(input.ApiVersion);
  const data = plan
    ? await keyValuesOf(await plan, page)
    : page.map((record) => {
        const shown = { ...recordView(site, record, zone), ApiVersion: version };
        return version < 1.1 ? legacyRecordView(shown) : shown;
      });
  const response = { Offset: offset, PageSize: pageSize, TotalCount: read.totalCount, Data: data };
  return { response, limits };
}

/** What `items/{id}/get` reads, before it is shaped as the answer (server scripts shape it as models). */
export type ItemPage =
  | { readonly kind: 'folder'; readonly folder: Record<string, unknown> }
  | {
      readonly kind: 'records';
      /** The site asked for, and the sites its page's records come from (its integrated sites). */
      readonly site: Site;
      readonly sites: readonly Site[];
      /** As WhenloadingRecord scripts left them. */
      readonly page: readonly ItemRecord[];
      readonly totalCount: number;
      readonly offset: number;
      readonly pageSize: number;
      readonly limits: Reading['limits'];
      /** View.ApiDataType KeyValues: the grid's plan, started while the page was read. */
      readonly plan?: ReturnType<typeof planKeyValues>;
    };

/** readItem's reading: the item, its permissions, the View, the paging and the scripts that load it. */
export async function readItemPage(
  principal: Principal,
  id: number,
  input: RecordGetInput,
  scripts: RecordScripts = noScripts,
  search?: RecordSearch,
): Promise<ItemPage> {
  const tableType = tableTypeOf(input.TableType);
  const deleted = tableType === 'Deleted' || tableType === 'NormalAndDeleted';
  // The recycle bin is read only when asked: a plain get reads the current item alone.
  const binned = deleted ? await deletedRecordById(principal, id) : undefined;
  const item: repository.Item | undefined = binned
    ? { kind: 'record', record: binned.record }
    : await repository.findItem(principal.tenantId, id);
  if (!item) throw new NotFoundError(`no item ${id} in tenant ${principal.tenantId}`);
  const site = item.kind === 'site' ? item.site : await siteInTenant(principal, item.record.siteId);
  if (item.kind === 'site' && site.referenceType === 'Sites') {
    await requirePermission(principal, site, Permission.Read);
    if (tableType !== 'Normal')
      throw new UnsupportedInputError(
        `TableType: ${tableType}: Kiroku keeps versions and deleted records of records, not of folders (a deleted site is restored by its id).`,
      );
    return { kind: 'folder', folder: siteView(site, callerZone(principal)) };
  }
  if (!recordHolders.has(site.referenceType)) throw new NotFoundError(`site ${id} holds no records`);
  // What the caller may read: a record by its site's Read or its own rows; a table's records by its Read,
  // else those whose own rows let them. A table or record the caller may not read answers as if it did
  // not exist (getsite says 403).
  const access = item.kind === 'record' ? undefined : await readableInSite(principal, site);
  if (
    item.kind === 'record' ? !(await canOnRecord(principal, site, item.record, Permission.Read)) : !access
  ) {
    throw new NotFoundError(`user ${principal.userId} may not read ${id}`);
  }
  const joins = await viewJoins(
    principal,
    site,
    joinedNamesIn(input.View ?? undefined),
    callerLanguage(principal),
    sorterNamesIn(input.View ?? undefined),
  );
  const compiled = compileViewFor(principal, site, input.View, true, joins);
  const asKeyValues = keyValuesAsked(compiled.properties.ApiDataType);
  const limits = await useApiCall(site);
  const pageSize = effectivePageSize(input.PageSize);
  const offset = input.Offset ?? 0;
  const zone = callerZone(principal);
  const view = await withSearch(
    compiled,
    principal.tenantId,
    access ? access.siteIds : [site.siteId],
    search,
  );
  // The grid's columns are checked, and the sites their links name read, while the page is read.
  const plan = asKeyValues ? planKeyValues(principal, site, view.properties, zone) : undefined;
  plan?.catch(() => undefined);
  const paging = { offset, pageSize };
  const record = item.kind === 'record' ? item.record : undefined;
  let selection: Selection;
  if (tableType === 'History' || tableType === 'NormalAndHistory') {
    selection = record
      ? await recordHistorySelection(tableType, record, view, paging)
      : await siteHistorySelection(tableType, principal.tenantId, access ?? noAccess, view, paging);
  } else if (deleted && !record) {
    selection = await siteDeletedSelection(tableType, principal, site, access ?? noAccess, view, paging);
  } else if (record && tableType === 'Deleted' && !binned) {
    // A current record is not in the bin: Deleted shows nothing of it.
    selection = { totalCount: 0, page: [] };
  } else if (record) {
    const shown = view.filter(record);
    selection = { totalCount: shown ? 1 : 0, page: shown ? [record] : [] };
  } else {
    selection = await selectVisible(access?.readable ?? [], access?.granted ?? [], view, paging);
  }
  // The sites the page's records come from, for scripts (a site's read shows its integrated sites' too).
  const sites = access ? access.sites : [site];
  // WhenloadingRecord scripts may change what is shown, never what is stored.
  const page = await loadingAll(scripts, sites, selection.page);
  const { totalCount } = selection;
  return { kind: 'records', site, sites, page, totalCount, offset, pageSize, limits, ...(plan && { plan }) };
}
