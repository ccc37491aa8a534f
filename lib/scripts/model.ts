import * as z from 'zod';
import { decimal, int32, MAX_LENGTH } from '../bounds';
import type { ItemRecord } from '../items/model';
import { mergeFields } from '../items/record-fields';
import { type Family, families, recordFields } from '../items/schemas';
import { recordView } from '../items/views';
import type { Site } from '../sites/model';
import { ServerScriptModelError } from './errors';

/**
 * `model` and `saved` (CONTRACT section 8): the record as the API shows it, with the hashes flattened into
 * the reference's column names (`ClassHash: {ClassA}` → `model.ClassA`). Scripts see the API's shape, so
 * they see whatever the record API shows (dates, ids by the site's kind).
 */
export type FlatModel = Record<string, unknown>;

const hashes = ['ClassHash', 'NumHash', 'DateHash', 'DescriptionHash', 'CheckHash', 'AttachmentsHash'];

/** `zone`: the caller's (lib/accounts/caller-zone.ts), as the record API answers them. */
export function toModel(site: Site, record: ItemRecord, zone: string): FlatModel {
  const view = recordView(site, record, zone);
  const model: FlatModel = {};
  for (const [key, value] of Object.entries(view)) {
    if (value === undefined) continue;
    if (hashes.includes(key)) Object.assign(model, value);
    else model[key] = value;
  }
  return model;
}

/** What a script may write: the columns of the five value families, Title, Body and Status. */
const writableFamilies: readonly Family[] = ['Class', 'Num', 'Date', 'Description', 'Check'];
const writable = new Set(
  Object.keys(recordFields).filter(
    (name) =>
      ['Title', 'Body', 'Status'].includes(name) ||
      writableFamilies.some((family) => new RegExp(`^${family}[A-Z]$`).test(name)),
  ),
);

/**
 * What a script may write into each writable field: the JavaScript type itself, without the API's JSON
 * leniency (a script writing "12" into a Num column is a mistake to report, not a number to guess).
 */
const strictTypes: Record<string, z.ZodType> = {
  Title: z.string().max(MAX_LENGTH.title),
  Body: z.string().max(MAX_LENGTH.text),
  Status: int32(),
  Class: z.string().max(MAX_LENGTH.title),
  Num: decimal(),
  Date: families.Date,
  Description: z.string().max(MAX_LENGTH.text),
  Check: z.boolean(),
};

/** `NumA` → `Num`; Title, Body and Status are their own. */
function familyOf(field: string): string {
  return writableFamilies.find((family) => new RegExp(`^${family}[A-Z]$`).test(field)) ?? field;
}

/**
 * The record with what the scripts wrote into `model`. A changed field must be writable and of its type;
 * a field that is not a column, a read-only one changed, or one removed is refused, naming it.
 */
export function applyModel(
  record: ItemRecord,
  before: FlatModel,
  after: FlatModel,
  script: string,
  zone: string,
): ItemRecord {
  const changes: Record<string, unknown> = {};
  for (const field of Object.keys(before)) {
    if (!Object.hasOwn(after, field)) throw new ServerScriptModelError(field, 'cannot be removed', script);
  }
  for (const [field, value] of Object.entries(after)) {
    if (JSON.stringify(value) === JSON.stringify(before[field])) continue;
    if (!writable.has(field)) {
      const problem =
        Object.hasOwn(before, field) || Object.hasOwn(recordFields, field)
          ? 'is read-only'
          : 'no such column';
      throw new ServerScriptModelError(field, problem, script);
    }
    const checked = (strictTypes[familyOf(field)] as z.ZodType).safeParse(value);
    if (!checked.success || checked.data === undefined) {
      throw new ServerScriptModelError(field, `wrong type (${describe(value)})`, script);
    }
    changes[field] = checked.data;
  }
  if (Object.keys(changes).length === 0) return record;
  const { Title, Body, Status, ...columns } = changes as { Title?: string; Body?: string; Status?: number };
  return {
    ...record,
    title: Title ?? record.title,
    body: Body ?? record.body,
    status: Status ?? record.status,
    fields: { ...mergeFields(columns, zone, record.fields), Attachments: record.fields.Attachments },
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object' && value !== null && 'BigInt' in value) return 'bigint';
  return Array.isArray(value) ? 'array' : typeof value;
}
