import { defaultEditorColumns } from '../columns/layouts';
import type { Column, ResolvedColumns } from '../columns/model';
import type { ItemRecord } from '../items/model';
import type { Site } from '../sites/model';
import type { NotificationSetting } from '../sites/notification-settings';
import { noticeValue, type ValueContext, valueKey } from './values';

/**
 * The text of a record's notice (the reference's `NoticeBody` over `Notification.GetFormat`): the
 * notification's Format when UseCustomFormat is on, else the default `{Url}`, one line per monitored column
 * and `{UserName}<{MailAddress}>`. A line that is a JSON column format (`{"Name":"[ClassA]",…}`) shows
 * that column as `Label : value` (an update: `Label : before => after`, only when it changed unless
 * `Always`); any other line has its `[ColumnName]` and `{Url}`-style placeholders replaced.
 */

export interface NoticeContext extends ValueContext {
  readonly site: Site;
  readonly columns: ResolvedColumns;
  /** The record's address as the notice links it. */
  readonly url: string;
  /** Who made the change. */
  readonly user: { readonly name: string; readonly loginId: string; readonly mailAddress?: string };
}

export interface ColumnFormat {
  readonly Name: string;
  readonly Prefix?: string;
  readonly Delimiter?: string;
  readonly Allow?: string;
  readonly Always?: boolean;
  /** BeforeAndAfterChange 0, BeforeChange 1, AfterChange 2. */
  readonly DisplayTypes?: number;
  readonly ValueOnly?: boolean;
  readonly ConsiderMultiLine?: boolean;
}

/** The columns an update is watched on: MonitorChangesColumns, else every editor column. */
export function monitoredColumns(notification: NotificationSetting, context: NoticeContext): Column[] {
  const names = notification.MonitorChangesColumns ?? editorColumnNames(context.site);
  return names
    .map((name) => context.columns.byName.get(name))
    .filter(
      (column): column is Column => column !== undefined && column.kind !== 'id' && column.kind !== 'version',
    );
}

function editorColumnNames(site: Site): readonly string[] {
  const hash = site.siteSettings.EditorColumnHash;
  if (typeof hash === 'object' && hash !== null && !Array.isArray(hash)) {
    const names = Object.values(hash).flatMap((tab) => (Array.isArray(tab) ? tab.map(String) : []));
    if (names.length > 0) return names;
  }
  return defaultEditorColumns(site.referenceType);
}

/** Whether an update changed any of the columns. */
export function changed(columns: readonly Column[], before: ItemRecord, after: ItemRecord): boolean {
  return columns.some((column) => valueKey(column, before) !== valueKey(column, after));
}

export function defaultFormat(notification: NotificationSetting, context: NoticeContext): string {
  const lines = monitoredColumns(notification, context).map((column) =>
    JSON.stringify({ Name: `[${column.columnName}]` }),
  );
  return `{Url}\n${lines.join('\n')}\n\n{UserName}<{MailAddress}>`;
}

/** The body; `before` is the saved record of an update (absent for a creation or a deletion). */
export function noticeBody(
  notification: NotificationSetting,
  record: ItemRecord,
  before: ItemRecord | undefined,
  context: NoticeContext,
): string {
  const format =
    notification.UseCustomFormat === true && notification.Format
      ? notification.Format
      : defaultFormat(notification, context);
  return format
    .split('\n')
    .map((raw) => {
      const line = raw.trim();
      const columnFormat = columnFormatOf(line);
      const column = columnFormat && context.columns.byName.get(columnFormat.Name.slice(1, -1));
      if (!columnFormat || !column) return `${replaced(line, record, context)}\n`;
      return columnText(columnFormat, column, record, before, context);
    })
    .join('');
}

/** `[ColumnName]` placeholders as the record shows them, then the context's `{Url}`-style ones. */
export function replaced(text: string, record: ItemRecord, context: NoticeContext): string {
  const withColumns = text.replace(/\[([A-Za-z]+)\]/g, (whole, name: string) => {
    const column = context.columns.byName.get(name);
    return column ? noticeValue(column, record, context) : whole;
  });
  const { user } = context;
  return withColumns
    .replaceAll('{Url}', context.url)
    .replaceAll('{LoginId}', user.loginId)
    .replaceAll('{UserName}', user.name)
    .replaceAll(user.mailAddress ? '{MailAddress}' : '<{MailAddress}>', user.mailAddress ?? '')
    .replaceAll('{MailAddress}', '');
}

function columnFormatOf(line: string): ColumnFormat | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const name = (parsed as { Name?: unknown }).Name;
    return typeof name === 'string' && /^\[[A-Za-z]+\]$/.test(name) ? (parsed as ColumnFormat) : undefined;
  } catch {
    return undefined;
  }
}

/** `NotificationColumnFormat.DisplayText`. */
function columnText(
  format: ColumnFormat,
  column: Column,
  record: ItemRecord,
  before: ItemRecord | undefined,
  context: NoticeContext,
): string {
  const multiLine =
    (column.kind === 'description' || column.columnName === 'Body') && format.ConsiderMultiLine !== false;
  const separator = multiLine ? '\n' : '';
  const header =
    format.ValueOnly === true
      ? ''
      : `${format.Prefix ?? ''}${column.labelText}${format.Delimiter || ' : '}${separator}`;
  const line = (value: string) => (value.endsWith('\n') ? value : `${value}\n`);
  const self = noticeValue(column, record, context);
  if (!before) return `${header}${line(self)}`;
  if (valueKey(column, before) === valueKey(column, record))
    return format.Always === true ? `${header}${line(self)}` : '';
  const saved = noticeValue(column, before, context);
  if (saved === '') return `${header}${line(self)}`;
  if (format.DisplayTypes === 1) return `${header}${line(saved)}`;
  if (format.DisplayTypes === 2) return `${header}${line(self)}`;
  return `${header}${saved}${separator}${format.Allow || ' => '}${separator}${line(self)}`;
}
