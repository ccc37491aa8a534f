import { choiceSources } from '../../lib/columns/choices';
import { type ChoiceResolver, displayValue, formatDate } from '../../lib/columns/display';
import type { Column } from '../../lib/columns/model';
import type { Accounts } from './accounts';
import { post, type RecordData } from './api';
import { language } from './i18n';
import { storedValue } from './record-values';

/**
 * The grid's cell texts, as the reference's grid shows them (lib/columns/display.ts): choice texts, user
 * names, linked records' titles, dates in the column's grid format by language, numbers rounded with
 * their unit. Names come from the tenant's account lists and titles from the linked records, read once.
 */

const titles = new Map<string, Promise<string | undefined>>();

/** A linked record's title (ItemTitle), read once per page load; undefined when it cannot be read. */
export function linkedTitle(id: string): Promise<string | undefined> {
  let title = titles.get(id);
  if (!title) {
    title = post<{ Response: { Data: RecordData[] } }>(`api/items/${id}/get`, {}).then(
      (answer) => {
        const record = answer.Response.Data[0];
        return record ? String(record.ItemTitle ?? record.Title ?? '') : undefined;
      },
      () => undefined,
    );
    titles.set(id, title);
  }
  return title;
}

/** The titles of the records the page's link columns hold, by id (an unreadable or gone one is absent). */
export async function linkTitles(
  columns: readonly Column[],
  records: readonly RecordData[],
): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const column of columns)
    if (choiceSources(column.choices).some((source) => source.kind === 'link'))
      for (const record of records) {
        const value = storedValue(record, column);
        if (typeof value === 'string' && /^\d+$/.test(value)) ids.add(value);
      }
  const found = new Map<string, string>();
  await Promise.all(
    [...ids].map(async (id) => {
      const title = await linkedTitle(id);
      if (title !== undefined) found.set(id, title);
    }),
  );
  return found;
}

export function resolver(accounts: Accounts | undefined, links: ReadonlyMap<string, string>): ChoiceResolver {
  return (source, value) => {
    switch (source.kind) {
      case 'users':
        return accounts?.User.find((user) => String(user.id) === value)?.name.replace(/ \(.*\)$/, '');
      case 'groups':
        return accounts?.Group.find((group) => String(group.id) === value)?.name;
      case 'depts':
        return accounts?.Dept.find((dept) => String(dept.id) === value)?.name;
      case 'link':
        return links.get(value);
      default:
        return undefined;
    }
  };
}

/** The record's last comment, from the Comments JSON text the API answers. */
function lastComment(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('[')) return '';
  try {
    const comments = JSON.parse(value) as { Body?: string }[];
    return comments[0]?.Body ?? '';
  } catch {
    return '';
  }
}

export function cellText(column: Column, record: RecordData, resolve: ChoiceResolver): string {
  const value = storedValue(record, column);
  switch (column.kind) {
    case 'comments':
      return lastComment(value);
    case 'titleBody':
      return String(record.ItemTitle ?? record.Title ?? '');
    case 'check':
      return value === true ? '✓' : '';
    case 'date':
      return typeof value === 'string' ? formatDate(value, column.gridFormat ?? 'Ymda', language()) : '';
  }
  const shown = displayValue(column, value, language(), 'Text', resolve);
  return shown === null || shown === undefined ? '' : String(shown);
}
