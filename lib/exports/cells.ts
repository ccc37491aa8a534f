import { type ChoiceSource, choiceSources, staticChoices } from '../columns/choices';
import type { DateFormat, Language } from '../columns/definitions';
import { formatDate, round } from '../columns/display';
import type { Column } from '../columns/model';
import type { ItemRecord } from '../items/model';
import { readerOf } from '../items/view/columns';
import { formatLocal, startOfDay, wallTime } from '../zoned-time';

/**
 * One cell of an export, as the reference's `ToExport` writes each kind (reference note §1, the table):
 * text in the caller's language and time zone, never a unit or a thousands separator. A column of an
 * export is one of these plans; lib/exports/definition.ts builds them from the body or the site.
 */

export type ExportForm = 'Text' | 'Value' | 'TextMini';

export interface ExportColumnPlan {
  readonly column: Column;
  /** The header: the export column's LabelText, else the column's. */
  readonly label: string;
  readonly form: ExportForm;
  /** A date's Displays format (Ymd, Ymdhm, …): the export column's, else the column's EditorFormat. */
  readonly format?: DateFormat;
  /** Each choice its own column `Label[Text]` holding `1` or nothing (at most 100). */
  readonly outputClassColumn: boolean;
  /** Comments as a JSON array, oldest first. */
  readonly jsonFormat: boolean;
}

/** What formatting needs besides the record: names behind ids are resolved by the page's lookups. */
export interface CellContext {
  readonly language: Language;
  readonly zone: string;
  /** A user's, dept's or group's name, a linked record's title; undefined when unknown. */
  readonly resolve: (source: ChoiceSource, value: string) => string | undefined;
}

/** ExportOutputColumnMax: the most choices OutputClassColumn spreads into columns. */
export const OUTPUT_COLUMN_MAX = 100;

const USERS: ChoiceSource = { kind: 'users', scope: 'site', showDeptName: false };
const DATE_ONLY: ReadonlySet<DateFormat> = new Set(['Ymd', 'Ymda']);

/** The header labels a plan writes: one, or `Label[Text]` per choice with OutputClassColumn. */
export function headerLabels(plan: ExportColumnPlan): string[] {
  if (!spreads(plan)) return [plan.label];
  return staticChoices(plan.column.choices)
    .slice(0, OUTPUT_COLUMN_MAX)
    .map((choice) => `${plan.label}[${choice.text}]`);
}

/** The cells a plan writes for a record: one, or a `1`/empty per choice with OutputClassColumn. */
export function exportCells(plan: ExportColumnPlan, record: ItemRecord, context: CellContext): string[] {
  if (spreads(plan)) {
    const chosen = new Set(partsOf(plan.column, rawOf(plan.column, record)));
    return staticChoices(plan.column.choices)
      .slice(0, OUTPUT_COLUMN_MAX)
      .map((choice) => (chosen.has(choice.value) ? '1' : ''));
  }
  return [exportCell(plan, record, context)];
}

function spreads(plan: ExportColumnPlan): boolean {
  return (
    plan.outputClassColumn && plan.column.family === 'Class' && staticChoices(plan.column.choices).length > 0
  );
}

export function exportCell(plan: ExportColumnPlan, record: ItemRecord, context: CellContext): string {
  const { column } = plan;
  const name = column.columnName;
  switch (column.kind) {
    case 'id':
    case 'version':
      return String(rawOf(column, record) ?? '');
    case 'number':
      return numberCell(column, rawOf(column, record));
    case 'date':
      return dateCell(plan, rawOf(column, record), context);
    case 'check':
      return rawOf(column, record) === true ? '1' : '';
    case 'comments':
      return commentsCell(plan, record, context);
    case 'attachments':
      return '';
    case 'status':
    case 'user':
      return choiceCell(plan, rawOf(column, record), context);
    case 'text':
    case 'titleBody':
      if (name === 'Title' || name === 'TitleBody')
        return plan.form === 'Value' ? record.title : (record.itemTitle ?? record.title);
      return column.choices.entries.length > 0
        ? choiceCell(plan, rawOf(column, record), context)
        : String(rawOf(column, record) ?? '');
    default:
      return String(rawOf(column, record) ?? '');
  }
}

/** The stored value: epoch ms for every date (the A–Z Date family too). */
export function rawOf(column: Column, record: ItemRecord): string | number | boolean | undefined {
  return readerOf(column)?.(record);
}

/** `Column.Display(format: false)`: DecimalPlaces by RoundingType, trailing zeros trimmed by nature. */
function numberCell(column: Column, value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return column.nullable ? '' : '0';
  return String(round(value, column.decimalPlaces, column.roundingType));
}

function dateCell(plan: ExportColumnPlan, value: unknown, context: CellContext): string {
  if (typeof value !== 'number') return '';
  const name = plan.column.columnName;
  const created = name === 'CreatedTime' || name === 'UpdatedTime';
  const format = plan.format ?? (created ? 'Ymdahms' : (plan.column.editorFormat ?? 'Ymd'));
  // A date-only CompletionTime is stored a day later (the end of its day): shown a day back.
  const instant =
    name === 'CompletionTime' && DATE_ONLY.has(format)
      ? startOfDay(value, context.zone, -1) + (value - startOfDay(value, context.zone))
      : value;
  return formatDate(formatLocal(instant, context.zone), format, context.language);
}

/** Choices, Status and people by the plan's form; a multi-select as a JSON array; Status 0 and nobody empty. */
function choiceCell(plan: ExportColumnPlan, value: unknown, context: CellContext): string {
  const { column } = plan;
  if (value === undefined || value === null || value === '') return '';
  if ((column.kind === 'status' || column.kind === 'user') && Number(value) === 0) return '';
  const parts = partsOf(column, value);
  const shown = parts.map((part) => choicePart(plan, part, context));
  return column.multipleSelections && column.kind !== 'user' && column.kind !== 'status'
    ? JSON.stringify(shown)
    : (shown[0] ?? '');
}

function choicePart(plan: ExportColumnPlan, value: string, context: CellContext): string {
  if (plan.form === 'Value') return value;
  const { column } = plan;
  const found = staticChoices(column.choices).find((choice) => choice.value === value);
  if (found) return plan.form === 'TextMini' ? found.textMini || found.text : found.text;
  const sources = choiceSources(column.choices);
  for (const source of column.kind === 'user' ? [USERS, ...sources] : sources) {
    const name = context.resolve(source, value);
    if (name !== undefined) return name;
  }
  return value;
}

/** A value's choices: a multi-select's JSON array, else the value itself. */
export function partsOf(column: Column, value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const text = String(value);
  if (column.multipleSelections && text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not a list after all: the text is one choice.
    }
  }
  return [text];
}

/**
 * Comments: newest first, each `<local time, 'G'> <name>\n<Body>` (Value: the creator's id), joined by a
 * blank line; ExportJsonFormat: a JSON array, oldest first, as the record answer's entries.
 */
function commentsCell(plan: ExportColumnPlan, record: ItemRecord, context: CellContext): string {
  const comments = record.comments ?? [];
  if (comments.length === 0) return '';
  if (plan.jsonFormat) {
    return JSON.stringify(
      [...comments].reverse().map((comment) => ({
        CommentId: comment.commentId,
        CreatedTime: formatLocal(comment.createdAt, context.zone),
        Creator: comment.creator,
        Body: comment.body,
      })),
    );
  }
  return comments
    .map((comment) => {
      const who =
        plan.form === 'Value'
          ? String(comment.creator)
          : (context.resolve(USERS, String(comment.creator)) ?? String(comment.creator));
      return `${generalTime(comment.createdAt, context)} ${who}\n${comment.body}`;
    })
    .join('\n\n');
}

/** .NET's general date-time pattern 'G': ja-JP `yyyy/MM/dd H:mm:ss`, en-US `M/d/yyyy h:mm:ss tt`. */
export function generalTime(instant: number, context: Pick<CellContext, 'language' | 'zone'>): string {
  const t = wallTime(instant, context.zone);
  const two = (n: number) => String(n).padStart(2, '0');
  if (context.language === 'ja')
    return `${t.year}/${two(t.month)}/${two(t.day)} ${t.hour}:${two(t.minute)}:${two(t.second)}`;
  const hour = t.hour % 12 === 0 ? 12 : t.hour % 12;
  return `${t.month}/${t.day}/${t.year} ${hour}:${two(t.minute)}:${two(t.second)} ${t.hour < 12 ? 'AM' : 'PM'}`;
}
