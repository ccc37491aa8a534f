import { callerLanguage } from '../accounts/caller-language';
import { callerZone } from '../accounts/caller-zone';
import { tenantUsers } from '../accounts/directory';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { ForbiddenError, NotFoundError, UnsupportedInputError } from '../errors';
import { tableDesign } from '../items/record-design';
import { recordsByKeys } from '../items/record-repository';
import { idColumnName } from '../items/view/columns';
import type { Site } from '../sites/model';
import { Permission, sitePermission } from '../sites/permissions';
import { queryKeys, recordsOf } from '../sites/store';
import { ImportKeyColumnError, NoImportRowsError, NotImportableSiteError } from './errors';
import { ImportPlanner, type PlannedPage, storedText } from './plan';
import { type ImportRow, importColumns, type RowError, readRow } from './rows';

/**
 * One import of one file, sync or as a background task: the caller's rights on the site, then the file's
 * rows read, checked and planned page by page (every row is checked before anything is written: the
 * caller writes the pages only when no row had an error).
 */

export interface ImportParameters {
  readonly Encoding?: string | null;
  readonly Key?: string | null;
  readonly UpdatableImport?: boolean | null;
  readonly MigrationMode?: boolean | null;
}

/** Rows per planned page: one BatchGetItem of matched records, one id reservation, ~13 transactions. */
export const PAGE_ROWS = 1000;
/** The first errors kept (and reported); reading stops there. */
export const MAX_ERRORS = 100;

export interface PlanResult {
  readonly rows: number;
  readonly added: number;
  readonly updated: number;
  readonly errors: readonly RowError[];
}

/** Issues or Results, Import (64) on it (403), readable (else 404); MigrationMode is not Kiroku's. */
export async function requireImporter(
  principal: Principal,
  site: Site,
  params: ImportParameters,
): Promise<void> {
  const bits = await sitePermission(principal, site);
  if (!(bits & Permission.Read))
    throw new NotFoundError(`user ${principal.userId} may not read site ${site.siteId}`);
  if (site.referenceType !== 'Issues' && site.referenceType !== 'Results')
    throw new NotImportableSiteError(site.siteId, site.referenceType);
  if (!(bits & Permission.Import))
    throw new ForbiddenError(`user ${principal.userId} lacks Import on site ${site.siteId} (has ${bits})`);
  if (params.MigrationMode) throw new UnsupportedInputError('MigrationMode: this feature is not available.');
}

/**
 * Reads the rows (the first is the header), checks and plans them a page at a time, and hands each page
 * to `onPage` while no row has had an error. `onRows` may refuse a file by its number of rows.
 */
export async function planImport(
  principal: Principal,
  site: Site,
  params: ImportParameters,
  cells: AsyncIterable<string[]>,
  onPage: (page: PlannedPage, index: number) => Promise<void>,
  onRows: (rows: number) => void = () => undefined,
): Promise<PlanResult> {
  const iterator = cells[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new NoImportRowsError();
  const design = tableDesign(site, callerLanguage(principal));
  const columns = importColumns(design.columns, first.value);
  const updatable = params.UpdatableImport === true;
  const key = updatable ? params.Key || idColumnName(site) : undefined;
  const keyColumn =
    key === undefined ? undefined : columns.find((c) => c.column.columnName === key && !c.flag);
  if (key !== undefined && !keyColumn) throw new ImportKeyColumnError(key);
  const context = { zone: callerZone(principal), userIds: await userIdsByName(principal.tenantId) };
  const keyIndex = key && key !== idColumnName(site) ? await keyIndexOf(site, key) : undefined;
  const planner = new ImportPlanner(
    principal,
    site,
    design,
    { ...(key && { key, keyLabel: keyColumn?.column.labelText }) },
    keyIndex,
    now(),
  );
  const errors: RowError[] = [];
  let batch: ImportRow[] = [];
  let rows = 0;
  let pages = 0;
  let added = 0;
  let updated = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const { page, errors: pageErrors } = await planner.plan(batch);
    batch = [];
    errors.push(...pageErrors.slice(0, MAX_ERRORS - errors.length));
    if (errors.length > 0) return;
    added += page.added;
    updated += page.updated;
    await onPage(page, pages++);
  };
  for (
    let next = await iterator.next();
    !next.done && errors.length < MAX_ERRORS;
    next = await iterator.next()
  ) {
    const cells = next.value;
    if (cells.every((cell) => cell.trim() === '')) continue;
    rows++;
    onRows(rows);
    const read = readRow(columns, cells, rows, context, key);
    if ('errors' in read) errors.push(...read.errors.slice(0, MAX_ERRORS - errors.length));
    else batch.push(read.row);
    if (batch.length >= PAGE_ROWS) await flush();
  }
  if (errors.length < MAX_ERRORS) await flush();
  if (rows === 0) throw new NoImportRowsError();
  return { rows, added, updated, errors };
}

async function userIdsByName(tenantId: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const user of await tenantUsers(tenantId)) if (!ids.has(user.name)) ids.set(user.name, user.userId);
  return ids;
}

/** The site's records by their Key column's text; only the ids are kept, not the records. */
async function keyIndexOf(site: Site, key: string): Promise<Map<string, number[]>> {
  const index = new Map<string, number[]>();
  const keys = await queryKeys(recordsOf(site.tenantId, site.siteId));
  for (let at = 0; at < keys.length; at += PAGE_ROWS) {
    for (const record of await recordsByKeys(keys.slice(at, at + PAGE_ROWS))) {
      const text = storedText(record, key);
      if (text === undefined) continue;
      index.set(text, [...(index.get(text) ?? []), record.recordId]);
    }
  }
  return index;
}
