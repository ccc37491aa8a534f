import { UnsupportedInputError } from '../errors';
import { siteVersionItems, versionItems } from './history-store';
import type { ItemRecord } from './model';
import type { SiteAccess } from './record-permissions';
import { toRecord } from './record-repository';
import { type Selection, selectVisible } from './record-select';
import type { CompiledView } from './view/view';

/**
 * `TableType` on `items/{id}/get` (CONTRACT 15), as the reference's GetByApi reads it (its Sqls.TableTypes):
 * Normal (the default) the current records only, History the kept versions only, NormalAndHistory both;
 * Deleted the recycle bin's records (lib/items/recycle-bin.ts), NormalAndDeleted the current and the
 * deleted ones. The View filters and sorts the versions and deleted records as it does records, and
 * paging and TotalCount count them alike. A name it does not know is refused.
 */
export type TableType = 'Normal' | 'History' | 'NormalAndHistory' | 'Deleted' | 'NormalAndDeleted';
export type HistoryType = 'History' | 'NormalAndHistory';

const KNOWN: readonly TableType[] = ['Normal', 'History', 'NormalAndHistory', 'Deleted', 'NormalAndDeleted'];

export function tableTypeOf(value: unknown): TableType {
  if (value === undefined || value === null) return 'Normal';
  const name = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  const known = KNOWN.find((type) => type.toLowerCase() === name);
  if (known) return known;
  throw new UnsupportedInputError(
    `TableType: ${JSON.stringify(value)} is not Normal, History, NormalAndHistory, Deleted or NormalAndDeleted.`,
  );
}

/** A record's kept versions, newest first (not the current one). */
export async function versionsOf(record: ItemRecord): Promise<ItemRecord[]> {
  return (await versionItems(record.tenantId, record.siteId, record.recordId)).map(toRecord);
}

/** What a History or NormalAndHistory read of one record selects: the View's filter applies to each row. */
export async function recordHistorySelection(
  tableType: HistoryType,
  record: ItemRecord,
  view: CompiledView,
  paging: { offset: number; pageSize: number },
): Promise<Selection> {
  const rows = [...(tableType === 'NormalAndHistory' ? [record] : []), ...(await versionsOf(record))];
  return paged(rows.filter(view.filter), view, paging);
}

/**
 * What a History or NormalAndHistory read of a table selects: the kept versions of the records the caller
 * may read (of the sites they read whole, or of the records their own rows let them read), with the current
 * records for NormalAndHistory. Every kept version of those sites is read: a site's history is for audits,
 * not for a grid (docs/api.md, "Versions and history").
 */
export async function siteHistorySelection(
  tableType: HistoryType,
  tenantId: number,
  access: SiteAccess,
  view: CompiledView,
  paging: { offset: number; pageSize: number },
): Promise<Selection> {
  const whole = new Set(access.readable.map((site) => site.siteId));
  const granted = new Set(access.granted.map((record) => record.recordId));
  const sites = new Set([...whole, ...access.granted.map((record) => record.siteId)]);
  const rows: ItemRecord[] = [];
  if (tableType === 'NormalAndHistory') {
    const all = { offset: 0, pageSize: Number.MAX_SAFE_INTEGER };
    rows.push(...(await selectVisible(access.readable, access.granted, view, all)).page);
  }
  for (const siteId of sites) {
    for await (const item of siteVersionItems(tenantId, siteId)) {
      const version = toRecord(item);
      if ((whole.has(siteId) || granted.has(version.recordId)) && view.filter(version)) rows.push(version);
    }
  }
  return paged(rows, view, paging);
}

/** In the View's order (the reference's default: UpdatedTime desc), a record's versions newest first. */
export function paged(
  rows: ItemRecord[],
  view: CompiledView,
  paging: { offset: number; pageSize: number },
): Selection {
  rows.sort((a, b) => view.compare(a, b) || (a.recordId === b.recordId ? b.version - a.version : 0));
  return { totalCount: rows.length, page: rows.slice(paging.offset, paging.offset + paging.pageSize) };
}
