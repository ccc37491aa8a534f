import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { getUser } from '../accounts/repository';
import { type ChoiceSource, choiceSources } from '../columns/choices';
import type { Language } from '../columns/definitions';
import { displayValue } from '../columns/display';
import type { Column, ResolvedColumns } from '../columns/model';
import type { Site } from '../sites/model';
import { formatLocal } from '../zoned-time';
import { type ItemRecord, itemTitleOf } from './model';
import { shownCompletionTime } from './record-people-and-times';
import { findItem } from './record-repository';
import { storedValue } from './record-values';

/**
 * The composite title (`SetTitle`, reference/pleasanter-columns.md 1): the Text of each TitleColumns
 * column that is not empty, joined by TitleSeparator (`)` unless set), kept as `itemTitle`, which
 * ItemTitle answers and links show. With the default TitleColumns (`["Title"]`) the record keeps none,
 * and none either when every title column is empty (the reference then only shows `No title`), so that
 * ItemTitle falls back to Title. Users' names and linked records' titles are looked up; departments and
 * groups are shown by id. The texts are in the writer's language, as the reference's stored title.
 */
export async function itemTitle(
  principal: Principal,
  site: Site,
  columns: ResolvedColumns,
  record: ItemRecord,
  language: Language,
): Promise<ItemRecord> {
  const { itemTitle: _, ...untitled } = record;
  const names = titleColumns(site.siteSettings?.TitleColumns);
  if (names.length === 0 || (names.length === 1 && names[0] === 'Title')) return untitled;
  const separator =
    typeof site.siteSettings?.TitleSeparator === 'string' ? site.siteSettings.TitleSeparator : ')';
  const zone = callerZone(principal);
  const parts: { column: Column; value: unknown }[] = [];
  for (const name of names) {
    const column = columns.byName.get(name);
    if (column) parts.push({ column, value: shownValue(site, record, column, zone) });
  }
  const names_ = await lookups(principal, parts);
  const texts = parts.flatMap(({ column, value }) => {
    const shown = displayValue(column, value, language, 'Text', (source, id) =>
      names_.get(`${source.kind}:${id}`),
    );
    return shown === null || shown === '' ? [] : [String(shown)];
  });
  return texts.length === 0 ? untitled : { ...untitled, itemTitle: texts.join(separator) };
}

function titleColumns(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}

/** The value as displayValue reads it: dates as local date-times, CompletionTime as the caller sees it. */
function shownValue(site: Site, record: ItemRecord, column: Column, zone: string): unknown {
  const value = storedValue(record, column.columnName);
  // A user id 0 is nobody: an empty user column.
  if (column.kind === 'user') return value === 0 ? undefined : value;
  if (column.kind !== 'date' || value === undefined) return value;
  const instant = typeof value === 'number' ? value : Date.parse(String(value));
  if (!Number.isFinite(instant)) return undefined;
  const shown = column.columnName === 'CompletionTime' ? shownCompletionTime(site, instant, zone) : instant;
  return formatLocal(shown, zone);
}

/** The names the title needs: users' (by the column's source) and linked records' titles, by `kind:id`. */
async function lookups(
  principal: Principal,
  parts: readonly { column: Column; value: unknown }[],
): Promise<Map<string, string>> {
  const wanted = new Map<string, { source: ChoiceSource; id: string }>();
  for (const { column, value } of parts) {
    if (value === undefined || value === null || value === '') continue;
    const sources = choiceSources(column.choices);
    const all = sources.length > 0 ? sources : column.kind === 'user' ? [usersSource] : [];
    for (const source of all) {
      if (source.kind !== 'users' && source.kind !== 'link') continue;
      const ids = column.multipleSelections ? idsOf(String(value)) : [String(value)];
      for (const id of ids) wanted.set(`${source.kind}:${id}`, { source, id });
    }
  }
  const found = new Map<string, string>();
  await Promise.all(
    [...wanted].map(async ([key, { source, id }]) => {
      const number = Number(id);
      if (!Number.isSafeInteger(number) || number <= 0) return;
      if (source.kind === 'users') {
        const user = await getUser(number);
        if (user && user.tenantId === principal.tenantId) found.set(key, user.name);
        return;
      }
      const item = await findItem(principal.tenantId, number);
      if (item?.kind === 'record') found.set(key, itemTitleOf(item.record));
    }),
  );
  return found;
}

const usersSource: ChoiceSource = { kind: 'users', scope: 'site', showDeptName: false };

function idsOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [text];
  } catch {
    return [text];
  }
}
