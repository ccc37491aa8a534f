import type { ItemRecord, RecordFields } from '../items/model';
import { walkRecent } from '../items/record-index-walk';
import { recordsByKeys } from '../items/record-repository';
import type { CompiledView } from '../items/view/view';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';

/**
 * A site's records as a View selects them, page by page from a cursor that a later invocation can take
 * up (an export runs in pages: lib/exports/background.ts). In the default order (UpdatedTime desc, id
 * desc) a page walks the `RecordsByStatus` index from the last entry the previous page judged, so a page
 * costs what it reads, whatever came before. Another order needs every selected record before the first
 * row: `sortedIds` reads them in pages and keeps only what the sort compares, then pages go by position
 * in that list of ids.
 */

export interface PageCursor {
  /** Default order: the RecentKey of the last index entry judged. */
  readonly after?: string;
  /** Another order: how many ids of the sorted list are done. */
  readonly offset?: number;
}

export interface RecordPage {
  readonly records: readonly ItemRecord[];
  /** Where the next page starts; undefined when this one was the last. */
  readonly next?: PageCursor;
}

/** The next `limit` records from `cursor`: by the index, or by position in `order` when given. */
export async function recordPage(
  site: Site,
  view: CompiledView,
  cursor: PageCursor,
  limit: number,
  order?: readonly number[],
): Promise<RecordPage> {
  if (order) {
    const offset = cursor.offset ?? 0;
    const ids = order.slice(offset, offset + limit);
    const byId = new Map(
      (await recordsByKeys(ids.map((id) => itemKeys.item(site.tenantId, id)))).map((r) => [r.recordId, r]),
    );
    const records = ids.flatMap((id) => byId.get(id) ?? []);
    const end = offset + ids.length;
    return { records, ...(end < order.length && { next: { offset: end } }) };
  }
  const walk = await walkRecent([site], view.statuses, view.filter, limit, cursor.after);
  const next = walk.complete || walk.last === undefined ? undefined : { after: walk.last };
  return { records: walk.matches, ...(next && { next }) };
}

/** Index entries judged per walk while sorting: the records' bodies are dropped after each. */
const SORT_PAGE = 1000;

/**
 * The ids of the records the View selects, in its order. Only what the order compares is kept of each
 * record (the sorted columns and the scalar fields), not its texts and comments.
 */
export async function sortedIds(
  site: Site,
  view: CompiledView,
  sortedNames: readonly string[],
): Promise<number[]> {
  const stubs: ItemRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const walk = await walkRecent([site], view.statuses, view.filter, SORT_PAGE, after);
    for (const record of walk.matches) stubs.push(stubOf(record, sortedNames));
    if (walk.complete || walk.last === undefined) break;
    after = walk.last;
  }
  return stubs.sort(view.compare).map((record) => record.recordId);
}

function stubOf(record: ItemRecord, names: readonly string[]): ItemRecord {
  const keep = new Set(names.map((name) => name.split('~')[0] ?? name));
  const family = <T>(values: Record<string, T>) =>
    Object.fromEntries(Object.entries(values).filter(([name]) => keep.has(name)));
  const fields: RecordFields = {
    Class: family(record.fields.Class),
    Num: family(record.fields.Num),
    Date: family(record.fields.Date),
    Description: family(record.fields.Description),
    Check: family(record.fields.Check),
    Attachments: {},
  };
  const { body, comments, permissions, ...scalars } = record;
  return { ...scalars, fields, ...(keep.has('Body') && body !== undefined && { body }) };
}
