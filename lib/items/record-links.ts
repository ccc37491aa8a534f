import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { MAX_BULK } from '../bounds';
import { now } from '../clock';
import { parseChoicesText } from '../columns/choices';
import { OutOfBoundsError } from '../errors';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { Permission, sitePermission } from '../sites/permissions';
import { sitesOfTenant, toSite } from '../sites/repository';
import { batchGet } from '../sites/store';
import type { ItemRecord } from './model';
import { deletionWrites } from './record-design';
import { deleteRecords, type TransactItem } from './record-repository';
import { selectAll } from './record-select';
import { storedValue } from './record-values';
import { compileView } from './view/view';

/**
 * DeleteWithLinks (reference/pleasanter-columns.md 6, `LinkAction.DeleteWithLinks`): deleting parent
 * records also deletes the child records of every site whose link to the parents' site carries
 * `LinkActions: [{Type: "DeleteWithLinks"}]` (a `Links` entry of the child site's SiteSettings, or a
 * JSON link of a column's ChoicesText) and whose link column holds a parent's id, among the records the
 * action's optional View selects, when the caller may delete in the child site. As the reference: a
 * site where the caller lacks Delete is left alone, and so is one where a child is locked against the
 * caller (the reference's ExistsLockedRecord check); grandchildren are not followed.
 *
 * Bounded: the children of one delete are at most what one bulkdelete deletes (MAX_BULK.bulkDelete),
 * else the delete is refused before anything is deleted; they go in pages of CHILD_PAGE records.
 */

const CHILD_PAGE = 500;

export interface ChildDeletion {
  readonly site: Site;
  readonly records: readonly ItemRecord[];
}

interface LinkAction {
  readonly columnName: string;
  readonly view?: Record<string, unknown>;
}

/** The child records the deletion of `parents` (records of `site`) deletes with them. */
export async function linkedChildren(
  principal: Principal,
  site: Site,
  parents: readonly ItemRecord[],
): Promise<ChildDeletion[]> {
  if (parents.length === 0) return [];
  const candidates = (await sitesOfTenant(principal.tenantId)).filter(
    (candidate) => candidate.referenceType === 'Issues' || candidate.referenceType === 'Results',
  );
  if (candidates.length === 0) return [];
  const items = await batchGet(
    candidates.map((candidate) => itemKeys.item(principal.tenantId, candidate.siteId)),
  );
  const ids = new Set(parents.map((parent) => String(parent.recordId)));
  const deletions: ChildDeletion[] = [];
  let total = 0;
  for (const item of items) {
    if (item.Kind !== 'site') continue;
    const child = toSite(item);
    if (child.deleting) continue;
    const actions = deleteActions(child, site.siteId);
    if (actions.length === 0) continue;
    if (!((await sitePermission(principal, child)) & Permission.Delete)) continue;
    const records = await childrenIn(principal, child, actions, ids);
    if (records.some((record) => lockedAgainst(principal, record))) continue;
    total += records.length;
    if (total > MAX_BULK.bulkDelete) {
      throw new OutOfBoundsError(
        'DeleteWithLinks',
        `deleting these records deletes more than ${MAX_BULK.bulkDelete} linked records; delete some of them first`,
      );
    }
    if (records.length > 0) deletions.push({ site: child, records });
  }
  return deletions;
}

/** Deletes the children found, a page at a time, with their NoDuplication values. */
export async function deleteChildren(
  principal: Principal,
  deletions: readonly ChildDeletion[],
): Promise<void> {
  for (const { site, records } of deletions) {
    for (let start = 0; start < records.length; start += CHILD_PAGE) {
      const page = records.slice(start, start + CHILD_PAGE);
      const releases = new Map<number, TransactItem[]>();
      for (const record of page) releases.set(record.recordId, await deletionWrites(principal, site, record));
      await deleteRecords(page, (record) => releases.get(record.recordId) ?? [], principal.userId);
    }
  }
}

/** The child site's DeleteWithLinks links to the parent site: its Links entries and JSON link columns. */
export function deleteActions(child: Site, parentSiteId: number): LinkAction[] {
  const settings = child.siteSettings ?? {};
  const actions: LinkAction[] = [];
  const add = (columnName: unknown, linkActions: unknown) => {
    if (typeof columnName !== 'string' || !Array.isArray(linkActions)) return;
    for (const action of linkActions) {
      const { Type, View } = (action ?? {}) as Record<string, unknown>;
      if (Type !== 'DeleteWithLinks') continue;
      const view = typeof View === 'object' && View !== null ? (View as Record<string, unknown>) : undefined;
      if (!actions.some((known) => known.columnName === columnName && known.view === view))
        actions.push({ columnName, ...(view && { view }) });
    }
  };
  for (const link of Array.isArray(settings.Links) ? settings.Links : []) {
    const { ColumnName, SiteId, LinkActions } = (link ?? {}) as Record<string, unknown>;
    if (Number(SiteId) === parentSiteId) add(ColumnName, LinkActions);
  }
  for (const column of Array.isArray(settings.Columns) ? settings.Columns : []) {
    const { ColumnName, ChoicesText } = (column ?? {}) as Record<string, unknown>;
    if (typeof ChoicesText !== 'string' || !/^\s*\[\s*\{/.test(ChoicesText)) continue;
    for (const entry of parseChoicesText(ChoicesText).entries) {
      if (entry.kind === 'link' && entry.siteId === parentSiteId)
        add(ColumnName, entry.settings?.LinkActions);
    }
  }
  return actions;
}

/** The View properties an action's View filters by (a stored View also carries its screens' settings). */
const FILTERS = [
  'ColumnFilterHash',
  'ColumnFilterSearchTypes',
  'Incomplete',
  'Own',
  'NearCompletionTime',
  'Delay',
  'Overdue',
];

/** The child site's records whose link column holds one of the ids, among those the action's View selects. */
async function childrenIn(
  principal: Principal,
  child: Site,
  actions: readonly LinkAction[],
  ids: ReadonlySet<string>,
): Promise<ItemRecord[]> {
  const found = new Map<number, ItemRecord>();
  for (const action of actions) {
    const filters = Object.fromEntries(
      Object.entries(action.view ?? {}).filter(([key]) => FILTERS.includes(key)),
    );
    const view = compileView(child, filters, {
      userId: principal.userId,
      zone: callerZone(principal),
      now: now(),
    });
    for (const record of await selectAll([child], view)) {
      if (!found.has(record.recordId) && links(storedValue(record, action.columnName), ids))
        found.set(record.recordId, record);
    }
  }
  return [...found.values()].filter((record) => !ids.has(String(record.recordId)));
}

/** A link column holds the parent's id as text, or a JSON array of ids (MultipleSelections). */
function links(value: unknown, ids: ReadonlySet<string>): boolean {
  if (value === undefined || value === null || value === '') return false;
  const text = String(value);
  if (ids.has(text.trim())) return true;
  if (!text.trimStart().startsWith('[')) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.some((id) => ids.has(String(id)));
  } catch {
    return false;
  }
}

function lockedAgainst(principal: Principal, record: ItemRecord): boolean {
  if (!record.locked || record.lockedBy === principal.userId) return false;
  return !(principal.tenantManager || principal.privileged);
}
