import { type ParsedChoices, parseChoicesText } from './choices';
import {
  type ColumnDefinition,
  type ColumnFamily,
  type ColumnKind,
  DATE_FORMATS,
  type DateFormat,
  definitionsOf,
  type Language,
  type ReferenceType,
} from './definitions';

/**
 * The one column model (CONTRACT 11): a ReferenceType's built-in definitions merged with a site's
 * `Columns` entries as the reference's `SiteSettings.UpdateColumn` merges them: a property the site sets
 * wins whenever it is not null, `""` included (so `DefaultInput: ""` turns the default off), and
 * LabelText falls back to the definition's label in the caller's language.
 */

export type RoundingType = 10 | 20 | 30 | 40 | 50;
const ROUNDING_TYPES: readonly number[] = [10, 20, 30, 40, 50];

export interface Column {
  readonly columnName: string;
  readonly kind: ColumnKind;
  readonly family?: ColumnFamily;
  readonly labelText: string;
  /** The definition's label in the language, what LabelText falls back to. */
  readonly labelTextDefault: string;
  readonly choicesText: string;
  readonly choices: ParsedChoices;
  readonly defaultInput: string;
  readonly editorFormat?: DateFormat;
  readonly gridFormat?: DateFormat;
  readonly decimalPlaces: number;
  readonly roundingType: RoundingType;
  readonly unit: string;
  /** The admin's character limit; undefined is no limit (the reference writes it only when > 0). */
  readonly maxLength?: number;
  readonly nullable: boolean;
  readonly multipleSelections: boolean;
  readonly noDuplication: boolean;
  readonly messageWhenDuplicated?: string;
  readonly validateRequired: boolean;
  readonly editorReadOnly: boolean;
  readonly hide: boolean;
  readonly allowImage: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly description?: string;
  readonly serverRegexValidation?: string;
  readonly regexValidationMessage?: string;
  readonly fieldCss?: string;
  /** The site's entry as stored, kept whole so that screen-only properties survive a round trip. */
  readonly site?: Readonly<Record<string, unknown>>;
}

export interface ColumnProblem {
  readonly columnName?: string;
  readonly property?: string;
  readonly reason: string;
}

export interface ResolvedColumns {
  readonly list: readonly Column[];
  readonly byName: ReadonlyMap<string, Column>;
  readonly problems: readonly ColumnProblem[];
}

type Kind = 'string' | 'number' | 'boolean';
/** The site properties the model reads, with the JSON type each must have. */
const PROPERTIES = {
  LabelText: 'string',
  ChoicesText: 'string',
  DefaultInput: 'string',
  EditorFormat: 'string',
  GridFormat: 'string',
  DecimalPlaces: 'number',
  RoundingType: 'number',
  Unit: 'string',
  MaxLength: 'number',
  Nullable: 'boolean',
  MultipleSelections: 'boolean',
  NoDuplication: 'boolean',
  MessageWhenDuplicated: 'string',
  ValidateRequired: 'boolean',
  EditorReadOnly: 'boolean',
  Hide: 'boolean',
  AllowImage: 'boolean',
  Min: 'number',
  Max: 'number',
  Step: 'number',
  Description: 'string',
  ServerRegexValidation: 'string',
  RegexValidationMessage: 'string',
  FieldCss: 'string',
} as const satisfies Record<string, Kind>;
type Property = keyof typeof PROPERTIES;
type SiteValues = {
  -readonly [P in Property]?: (typeof PROPERTIES)[P] extends 'string'
    ? string
    : (typeof PROPERTIES)[P] extends 'number'
      ? number
      : boolean;
};

/**
 * A property's site value, or undefined when the site leaves it to the definition (absent or null). A
 * value of the wrong type is reported and left to the definition, as the reference's deserializer would
 * fail on it; numbers written as strings and numbers given to string properties are accepted as
 * Newtonsoft.Json converts them.
 */
function read(
  entry: Record<string, unknown>,
  property: Property,
  problems: ColumnProblem[],
  columnName: string,
) {
  const value = entry[property];
  if (value === undefined || value === null) return undefined;
  const kind = PROPERTIES[property];
  if (kind === 'string' && (typeof value === 'string' || typeof value === 'number')) return String(value);
  if (kind === 'number') {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number === 'number' && Number.isFinite(number)) return number;
  }
  if (kind === 'boolean' && typeof value === 'boolean') return value;
  problems.push({ columnName, property, reason: `${property} must be a ${kind}; the default is used.` });
  return undefined;
}

function siteValues(
  entry: Record<string, unknown>,
  problems: ColumnProblem[],
  columnName: string,
): SiteValues {
  const values: Record<string, unknown> = {};
  for (const property of Object.keys(PROPERTIES) as Property[]) {
    const value = read(entry, property, problems, columnName);
    if (value !== undefined) values[property] = value;
  }
  if (
    values.EditorFormat !== undefined &&
    !(DATE_FORMATS as readonly string[]).includes(values.EditorFormat as string)
  ) {
    problems.push({
      columnName,
      property: 'EditorFormat',
      reason: `EditorFormat "${values.EditorFormat}" is not known; the default is used.`,
    });
    delete values.EditorFormat;
  }
  if (values.RoundingType !== undefined && !ROUNDING_TYPES.includes(values.RoundingType as number)) {
    problems.push({
      columnName,
      property: 'RoundingType',
      reason: `RoundingType ${values.RoundingType} is not known; AwayFromZero is used.`,
    });
    delete values.RoundingType;
  }
  return values as SiteValues;
}

export function mergeColumn(
  definition: ColumnDefinition,
  language: Language,
  entry?: Record<string, unknown>,
  problems: ColumnProblem[] = [],
): Column {
  const site = entry ? siteValues(entry, problems, definition.columnName) : {};
  const labelTextDefault = definition.labels[language];
  const choicesText = site.ChoicesText ?? definition.choicesText ?? '';
  const column: Column = {
    columnName: definition.columnName,
    kind: definition.kind,
    ...(definition.family ? { family: definition.family } : {}),
    labelText: site.LabelText ?? labelTextDefault,
    labelTextDefault,
    choicesText,
    choices: parseChoicesText(choicesText),
    defaultInput: site.DefaultInput ?? definition.defaultInput ?? '',
    ...defined('editorFormat', (site.EditorFormat as DateFormat | undefined) ?? definition.editorFormat),
    ...defined('gridFormat', (site.GridFormat as DateFormat | undefined) ?? definition.gridFormat),
    decimalPlaces: site.DecimalPlaces ?? definition.decimalPlaces ?? 0,
    roundingType: (site.RoundingType as RoundingType | undefined) ?? 10,
    unit: site.Unit ?? definition.unit ?? '',
    ...defined('maxLength', site.MaxLength !== undefined && site.MaxLength > 0 ? site.MaxLength : undefined),
    nullable: site.Nullable ?? false,
    multipleSelections: site.MultipleSelections ?? false,
    noDuplication: site.NoDuplication ?? false,
    ...defined('messageWhenDuplicated', site.MessageWhenDuplicated),
    validateRequired: site.ValidateRequired ?? definition.validateRequired ?? false,
    editorReadOnly: site.EditorReadOnly ?? definition.editorReadOnly ?? false,
    hide: site.Hide ?? false,
    allowImage: site.AllowImage ?? true,
    ...defined('min', site.Min ?? definition.min),
    ...defined('max', site.Max ?? definition.max),
    ...defined('step', site.Step ?? definition.step),
    ...defined('description', site.Description),
    ...defined('serverRegexValidation', site.ServerRegexValidation),
    ...defined('regexValidationMessage', site.RegexValidationMessage),
    ...defined('fieldCss', site.FieldCss),
    ...(entry ? { site: entry } : {}),
  };
  return column;
}

function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

const cache = new Map<string, ResolvedColumns>();

/**
 * The merged columns of a table. Entries naming no column of the ReferenceType are reported and left
 * out (the reference drops them); of two entries for one column the first wins (`UpdateColumnHash`).
 * Without site entries the answer is cached per ReferenceType and language.
 */
export function columnsOf(
  referenceType: ReferenceType,
  siteColumns: readonly unknown[] | undefined,
  language: Language,
): ResolvedColumns {
  const plain = !siteColumns || siteColumns.length === 0;
  const key = `${referenceType}:${language}`;
  if (plain) {
    const cached = cache.get(key);
    if (cached) return cached;
  }
  const problems: ColumnProblem[] = [];
  const entries = new Map<string, Record<string, unknown>>();
  const definitions = definitionsOf(referenceType);
  const known = new Set(definitions.map((definition) => definition.columnName));
  (siteColumns ?? []).forEach((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push({ reason: `Columns[${index}] is not an object.` });
      return;
    }
    const name = (entry as Record<string, unknown>).ColumnName;
    if (typeof name !== 'string') {
      problems.push({ reason: `Columns[${index}] has no ColumnName.` });
      return;
    }
    if (!known.has(name))
      problems.push({ columnName: name, reason: `${referenceType} has no column ${name}.` });
    else if (entries.has(name))
      problems.push({
        columnName: name,
        reason: `Columns[${index}] repeats ${name}; the first entry is used.`,
      });
    else entries.set(name, entry as Record<string, unknown>);
  });
  const list = definitions.map((definition) =>
    mergeColumn(definition, language, entries.get(definition.columnName), problems),
  );
  const resolved: ResolvedColumns = {
    list,
    byName: new Map(list.map((column) => [column.columnName, column])),
    problems,
  };
  if (plain) cache.set(key, resolved);
  return resolved;
}
