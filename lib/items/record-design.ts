import { callerLanguage } from '../accounts/caller-language';
import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { type DefaultValue, defaultsOf, TOP_LEVEL_COLUMNS } from '../columns/defaults';
import type { Language, ReferenceType } from '../columns/definitions';
import { round } from '../columns/display';
import { type FormulaSet, formulaName, isFormulaTarget, parseFormulas } from '../columns/formulas';
import { type Column, columnsOf, type ResolvedColumns } from '../columns/model';
import type { Site } from '../sites/model';
import type { ItemRecord } from './model';
import { validateRecord } from './record-checks';
import { withFormulas } from './record-formulas';
import { storedCompletionTime } from './record-people-and-times';
import type { TransactItem } from './record-repository';
import { itemTitle } from './record-title';
import { uniquenessWrites } from './record-unique';
import { type StoredValue, storedValue, withValue } from './record-values';
import type { RecordWriteInput } from './schemas';

/**
 * A write through the site's table design (CONTRACT 11; reference/pleasanter-columns.md 4 and 5), for
 * every path that writes records (create, update, upsert, bulkupsert, scripts): DefaultInput on create,
 * rounding of numbers, Formulas, the composite title, then, on the record as its Before scripts leave
 * it, MaxLength and ServerRegexValidation (422) and NoDuplication (409, in the record's transaction).
 */

export interface TableDesign {
  readonly referenceType: ReferenceType;
  readonly columns: ResolvedColumns;
  readonly formulas: readonly FormulaSet[];
  /** What makes a formula inapplicable, by its index in Formulas (the write is refused naming it). */
  readonly formulaErrors: ReadonlyMap<number, string>;
  readonly views: readonly Record<string, unknown>[];
  /** Columns with a MaxLength or a ServerRegexValidation. */
  readonly checked: readonly Column[];
  readonly unique: readonly Column[];
}

const designs = new Map<string, TableDesign>();
const MAX_CACHED = 200;

/** The site's table design in the language; the last few are kept, keyed by the site's version. */
export function tableDesign(site: Site, language: Language): TableDesign {
  const key = `${site.tenantId}:${site.siteId}:${site.ver}:${site.updatedAt}:${language}`;
  const cached = designs.get(key);
  if (cached) return cached;
  const settings = site.siteSettings ?? {};
  const referenceType = site.referenceType as ReferenceType;
  const columns = columnsOf(referenceType, settings.Columns as unknown[] | undefined, language);
  const parsed = parseFormulas(settings);
  const formulaErrors = new Map<number, string>();
  for (const problem of parsed.problems) {
    const index = /^Formulas\[(\d+)\]/.exec(problem.formula)?.[1];
    formulaErrors.set(index === undefined ? -1 : Number(index), `${problem.formula}: ${problem.reason}`);
  }
  for (const set of parsed.sets) {
    if (!isFormulaTarget(columns.byName.get(set.target)))
      formulaErrors.set(set.index, `${formulaName(set)}: Target ${set.target} is no numeric column`);
  }
  const design: TableDesign = {
    referenceType,
    columns,
    formulas: parsed.sets,
    formulaErrors,
    views: (Array.isArray(settings.Views) ? settings.Views : []).filter(
      (view): view is Record<string, unknown> => typeof view === 'object' && view !== null,
    ),
    checked: columns.list.filter(
      (column) => column.maxLength !== undefined || (column.serverRegexValidation ?? '') !== '',
    ),
    unique: columns.list.filter((column) => column.noDuplication),
  };
  if (designs.size >= MAX_CACHED) designs.delete(designs.keys().next().value as string);
  designs.set(key, design);
  return design;
}

/** A create's record with the design applied: defaults for what the body does not send, then as updates. */
export async function designedNewRecord(
  principal: Principal,
  site: Site,
  input: RecordWriteInput,
  record: ItemRecord,
): Promise<ItemRecord> {
  const design = tableDesign(site, callerLanguage(principal));
  const zone = callerZone(principal);
  const defaults = defaultsOf(design.referenceType, design.columns.list, {
    userId: principal.userId,
    ...(principal.deptId !== undefined && { deptId: principal.deptId }),
    zone,
    now: now(),
  });
  let next = record;
  for (const [columnName, value] of defaults) {
    if (sent(input, record, columnName)) continue;
    next = withValue(next, columnName, defaultStored(site, columnName, value, zone));
  }
  return designedRecord(principal, site, next);
}

/** An update's record with the design applied: numbers rounded, formulas computed, the title joined. */
export async function designedRecord(
  principal: Principal,
  site: Site,
  record: ItemRecord,
): Promise<ItemRecord> {
  const language = callerLanguage(principal);
  const design = tableDesign(site, language);
  const computed = withFormulas(principal, site, design, rounded(design, record));
  return itemTitle(principal, site, design.columns, computed, language);
}

function sent(input: RecordWriteInput, record: ItemRecord, columnName: string): boolean {
  // Null counts as not sent (the reference's SetByApi skips it).
  if (TOP_LEVEL_COLUMNS.has(columnName)) return input[columnName] !== undefined && input[columnName] !== null;
  // A family's column is in the record when the body gave it, directly or in its hash (null removes it).
  return storedValue(record, columnName) !== undefined;
}

function defaultStored(site: Site, columnName: string, value: DefaultValue, zone: string): StoredValue {
  if (value.kind !== 'time') return value.value;
  if (columnName === 'StartTime') return value.value;
  if (columnName === 'CompletionTime') return storedCompletionTime(site, value.value, zone);
  return new Date(value.value).toISOString();
}

/** NumX, WorkValue and ProgressRate by their DecimalPlaces and RoundingType, on every write. */
function rounded(design: TableDesign, record: ItemRecord): ItemRecord {
  let next = record;
  const round1 = (column: Column | undefined, value: number | undefined) =>
    column && value !== undefined ? round(value, column.decimalPlaces, column.roundingType) : value;
  const { byName } = design.columns;
  for (const [name, value] of Object.entries(record.fields.Num)) {
    const shown = round1(byName.get(name), value);
    if (shown !== value) next = withValue(next, name, shown);
  }
  for (const name of ['WorkValue', 'ProgressRate']) {
    const value = storedValue(next, name) as number | undefined;
    const shown = round1(byName.get(name), value);
    if (shown !== value) next = withValue(next, name, shown);
  }
  return next;
}

/**
 * The write's checks on the record as it will be saved, and its NoDuplication parts: MaxLength, then
 * ServerRegexValidation, for every column holding a value (the reference's OnInputValidating checks every
 * column, the editor's first; a comment only when the write adds it), the first failure answered.
 */
export async function checkedWrite(
  principal: Principal,
  site: Site,
  before: ItemRecord | undefined,
  after: ItemRecord,
): Promise<TransactItem[]> {
  const design = tableDesign(site, callerLanguage(principal));
  validateRecord(design.checked, before, after);
  return design.unique.length > 0 ? uniquenessWrites(design.unique, before, after) : [];
}

/** The parts a record's deletion takes with it: its NoDuplication values let go. */
export async function deletionWrites(
  principal: Principal,
  site: Site,
  record: ItemRecord,
): Promise<TransactItem[]> {
  const design = tableDesign(site, callerLanguage(principal));
  return design.unique.length > 0 ? uniquenessWrites(design.unique, record, undefined) : [];
}
