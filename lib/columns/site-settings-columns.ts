import type { ColumnDefinition, ReferenceType } from './definitions';
import { definitionsOf } from './definitions';
import { type Column, mergeColumn } from './model';

/**
 * A `Columns` entry as `SiteSettings.RecordingData` writes it: ColumnName and the properties that differ
 * from the column's definition (lib/columns/site-settings.ts applies it to every entry).
 */

type Settings = Record<string, unknown>;

/** The model's property names, and the flags the diff handles, under their own spelling. */
const COLUMN_KEYS = new Map(
  [
    ...['ColumnName', 'LabelText', 'ChoicesText', 'DefaultInput', 'EditorFormat', 'GridFormat'],
    ...['DecimalPlaces', 'RoundingType', 'Unit', 'MaxLength', 'Nullable', 'MultipleSelections'],
    ...['NoDuplication', 'MessageWhenDuplicated', 'ValidateRequired', 'EditorReadOnly', 'Hide'],
    ...['AllowImage', 'Min', 'Max', 'Step', 'Description', 'ServerRegexValidation'],
    ...['RegexValidationMessage', 'FieldCss', 'Section', 'Link'],
  ].map((key) => [key.toLowerCase(), key]),
);

export function canonicalColumnKeys(entry: Settings): Settings {
  const out: Settings = {};
  for (const [key, value] of Object.entries(entry)) out[COLUMN_KEYS.get(key.toLowerCase()) ?? key] = value;
  return out;
}

/** Properties whose value the model may not know and fall back from; the value given is kept. */
export const FELL_BACK = ['EditorFormat', 'GridFormat', 'RoundingType'];

type Written = (site: Column, plain: Column, definition: ColumnDefinition) => boolean;
const differs =
  (field: keyof Column): Written =>
  (site, plain) =>
    site[field] !== plain[field];
const nonBlank =
  (field: keyof Column): Written =>
  (site) =>
    typeof site[field] === 'string' && (site[field] as string).trim() !== '';
const lines = (text: string) => text.replaceAll('\r\n', '\n');

/**
 * When `RecordingData` writes a property the model reads, and which Column field holds its value. A label
 * equal to the definition's in one language only is kept: it is what the admin chose, and dropping it would
 * show the other language's label to callers of that language, so a round trip is stable in both.
 */
export const WRITTEN: Readonly<Record<string, readonly [keyof Column, Written]>> = {
  LabelText: [
    'labelText',
    (site, _p, def) => !(site.labelText === def.labels.ja && site.labelText === def.labels.en),
  ],
  ChoicesText: ['choicesText', (site, plain) => lines(site.choicesText) !== lines(plain.choicesText)],
  DefaultInput: ['defaultInput', differs('defaultInput')],
  EditorFormat: ['editorFormat', differs('editorFormat')],
  GridFormat: ['gridFormat', differs('gridFormat')],
  DecimalPlaces: ['decimalPlaces', differs('decimalPlaces')],
  RoundingType: ['roundingType', differs('roundingType')],
  Unit: ['unit', differs('unit')],
  MaxLength: ['maxLength', (site) => site.maxLength !== undefined],
  Nullable: ['nullable', (site) => site.nullable],
  MultipleSelections: ['multipleSelections', (site) => site.multipleSelections],
  NoDuplication: ['noDuplication', (site) => site.noDuplication],
  MessageWhenDuplicated: ['messageWhenDuplicated', (site) => Boolean(site.messageWhenDuplicated)],
  ValidateRequired: ['validateRequired', differs('validateRequired')],
  EditorReadOnly: ['editorReadOnly', differs('editorReadOnly')],
  Hide: ['hide', (site) => site.hide],
  AllowImage: ['allowImage', (site) => !site.allowImage],
  Min: ['min', differs('min')],
  Max: ['max', differs('max')],
  Step: ['step', differs('step')],
  Description: ['description', nonBlank('description')],
  ServerRegexValidation: ['serverRegexValidation', nonBlank('serverRegexValidation')],
  RegexValidationMessage: ['regexValidationMessage', nonBlank('regexValidationMessage')],
  FieldCss: ['fieldCss', (site) => site.fieldCss !== undefined && site.fieldCss !== 'field-normal'],
};

/**
 * Each entry with ColumnName and the properties that differ from the definition, in the order given;
 * properties the model does not read are kept as given. A value the model could not take (an EditorFormat
 * or RoundingType it does not know) is kept as given too. Entries with nothing left, duplicates and entries
 * naming no column of the table are dropped.
 */
export function recordedColumns(entries: readonly Settings[], referenceType: ReferenceType): Settings[] {
  const definitions = new Map(definitionsOf(referenceType).map((def) => [def.columnName, def]));
  const seen = new Set<string>();
  const out: Settings[] = [];
  for (const entry of entries) {
    const name = String(entry.ColumnName);
    const definition = definitions.get(name);
    if (!definition || seen.has(name)) continue;
    seen.add(name);
    const site = mergeColumn(definition, 'ja', entry);
    const plain = mergeColumn(definition, 'ja');
    const kept: Settings = { ColumnName: name };
    for (const [key, value] of Object.entries(entry)) {
      if (key === 'ColumnName' || value === undefined || value === null) continue;
      const rule = WRITTEN[key];
      if (!rule) kept[key] = value;
      else if (site[rule[0]] === plain[rule[0]] && !rule[1](site, plain, definition)) {
        // The model fell back to the default: a value it does not know, kept for the reference's screens.
        if (
          value !== plain[rule[0]] &&
          (key === 'EditorFormat' || key === 'GridFormat' || key === 'RoundingType')
        )
          kept[key] = value;
      } else if (rule[1](site, plain, definition)) kept[key] = site[rule[0]];
    }
    if (Object.keys(kept).length > 1) out.push(kept);
  }
  return out;
}
