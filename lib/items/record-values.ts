import type { ItemRecord, RecordFields } from './model';

/**
 * A record's value by column name, as stored: what the table design (defaults, formulas, checks, the
 * composite title, NoDuplication) reads and writes through the column model's names.
 */

export type StoredValue = string | number | boolean | undefined;

type Family = Exclude<keyof RecordFields, 'Attachments'>;
const FAMILY = /^(Class|Num|Date|Description|Check)([A-Z])$/;

/** The record properties that columns of these names stand for. */
const PROPERTIES = {
  Title: 'title',
  Body: 'body',
  Status: 'status',
  Manager: 'manager',
  Owner: 'owner',
  StartTime: 'startTime',
  CompletionTime: 'completionTime',
  WorkValue: 'workValue',
  ProgressRate: 'progressRate',
  Creator: 'creator',
  Updator: 'updator',
  CreatedTime: 'createdAt',
  UpdatedTime: 'updatedAt',
  Locked: 'locked',
  Ver: 'version',
  IssueId: 'recordId',
  ResultId: 'recordId',
  WikiId: 'recordId',
} as const satisfies Record<string, keyof ItemRecord>;
type Named = keyof typeof PROPERTIES;

function familyOf(columnName: string): { family: Family; name: string } | undefined {
  const match = FAMILY.exec(columnName);
  return match ? { family: match[1] as Family, name: columnName } : undefined;
}

export function storedValue(record: ItemRecord, columnName: string): StoredValue {
  if (columnName === 'RemainingWorkValue') return remainingWorkValue(record);
  const property = PROPERTIES[columnName as Named];
  if (property) return record[property] as StoredValue;
  const family = familyOf(columnName);
  return family ? (record.fields[family.family][family.name] as StoredValue) : undefined;
}

/** Issues' RemainingWorkValue, which the reference computes: WorkValue × (100 − ProgressRate) / 100. */
export function remainingWorkValue(record: ItemRecord): number | undefined {
  if (record.workValue === undefined) return undefined;
  return (record.workValue * (100 - (record.progressRate ?? 0))) / 100;
}

/** The value as text (numbers as JavaScript writes them); undefined when the record holds none. */
export function valueText(record: ItemRecord, columnName: string): string | undefined {
  const value = storedValue(record, columnName);
  return value === undefined ? undefined : String(value);
}

/** The record with one column's value set; undefined removes it. Columns without a stored value are left. */
export function withValue(record: ItemRecord, columnName: string, value: StoredValue): ItemRecord {
  const property = PROPERTIES[columnName as Named];
  if (property) return { ...record, [property]: value };
  const family = familyOf(columnName);
  if (!family) return record;
  const values: Record<string, unknown> = { ...record.fields[family.family] };
  if (value === undefined) delete values[family.name];
  else values[family.name] = value;
  return { ...record, fields: { ...record.fields, [family.family]: values } };
}
