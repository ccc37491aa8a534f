import * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { decimal, int32, MAX_LENGTH } from '../bounds';
import type { ItemRecord } from '../items/model';
import { mergeFields } from '../items/record-fields';
import { peopleAndTimes } from '../items/record-people-and-times';
import { recordView } from '../items/views';
import type { Site } from '../sites/model';
import { parseDateTime, UNSET_DATE } from '../zoned-time';
import { ServerScriptModelError } from './errors';

/**
 * `model` and `saved` (CONTRACT sections 8 and 13, reference/pleasanter-script-objects.md 4): what a
 * condition's scripts see of the record (scriptModel in lib/scripts/script-model.ts), and the record with what
 * they wrote back (applyModel). `toModel` is the apiModel that `items.Get` answers: the record as the API
 * shows it, its hashes flattened.
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

const families = ['Class', 'Num', 'Date', 'Description', 'Check'] as const;
const familyOf = (field: string) => families.find((family) => new RegExp(`^${family}[A-Z]$`).test(field));

/**
 * Fields a script may read but whose writes the reference drops without a word (its SetValues never reads
 * them back): Kiroku drops them too, so that a script copying a model field by field keeps working.
 * `ExtendedRowCss`/`ExtendedRowData` shape a grid row and `UpdateOnExit` a screen's save: no API has them.
 */
const DROPPED = new Set([
  'SiteId',
  'Ver',
  'Creator',
  'Updator',
  'CreatedTime',
  'UpdatedTime',
  'IssueId',
  'ResultId',
  'WikiId',
  'RecordId',
  'RemainingWorkValue',
  'ExtendedRowCss',
  'ExtendedRowData',
  'UpdateOnExit',
]);

/** A date as a script leaves it: a Date (crossing as its ISO text), a date text, or null to empty it. */
const dateValue = z.string().max(40).nullable();
const text = (max: number) => z.string().max(max);

/**
 * What a script may write into each writable field: the JavaScript type itself, without the API's JSON
 * leniency (a script writing "12" into a Num column is a mistake to report, not a number to guess).
 * null empties a column, as the API's null does.
 */
const strictTypes: Record<string, z.ZodType> = {
  Title: text(MAX_LENGTH.title),
  Body: text(MAX_LENGTH.text),
  Status: int32(),
  Manager: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  Owner: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  StartTime: dateValue,
  CompletionTime: dateValue,
  WorkValue: decimal().nullable(),
  ProgressRate: decimal().nullable(),
  Locked: z.boolean(),
  ReadOnly: z.boolean(),
  Comments: text(65_536),
  Class: text(MAX_LENGTH.title).nullable(),
  Num: decimal().nullable(),
  Date: dateValue,
  Description: text(MAX_LENGTH.text).nullable(),
  Check: z.boolean(),
};
const ISSUES_ONLY = ['StartTime', 'CompletionTime', 'WorkValue', 'ProgressRate'];

/** What applyModel made of a run: the record to save or answer, and the writes it dropped (to log). */
export interface AppliedModel {
  readonly record: ItemRecord;
  readonly dropped: readonly string[];
  /** `model.ReadOnly = true`: the record is read-only for the rest of the request. */
  readonly readOnly: boolean;
}

/**
 * The record with what the scripts wrote into `model` (reference 4's write-back): a changed field must be
 * one a script may write and hold its type, or the run is refused with a 400 naming it; the reference's
 * read-only fields (DROPPED) are left as they were. Kiroku has no column access controls, so every column
 * the caller may update is one the script may write.
 */
export function applyModel(
  site: Site,
  record: ItemRecord,
  before: FlatModel,
  after: FlatModel,
  script: string,
  principal: Principal,
  zone: string,
): AppliedModel {
  const changes: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const field of Object.keys(before)) {
    if (!Object.hasOwn(after, field)) throw new ServerScriptModelError(field, 'cannot be removed', script);
  }
  for (const [field, value] of Object.entries(after)) {
    if (JSON.stringify(value) === JSON.stringify(before[field])) continue;
    if (DROPPED.has(field)) {
      dropped.push(field);
      continue;
    }
    const type = strictTypes[familyOf(field) ?? field];
    if (!type || (ISSUES_ONLY.includes(field) && site.referenceType !== 'Issues')) {
      const problem = /^Attachments[A-Z]$/.test(field)
        ? 'is read-only (attach files with items.Update)'
        : Object.hasOwn(before, field)
          ? 'is read-only'
          : 'no such column';
      throw new ServerScriptModelError(field, problem, script);
    }
    const checked = type.safeParse(value);
    const isDate = familyOf(field) === 'Date' || field === 'StartTime' || field === 'CompletionTime';
    if (
      !checked.success ||
      (isDate && typeof value === 'string' && parseDateTime(value, zone) === undefined)
    ) {
      throw new ServerScriptModelError(field, `wrong type (${describe(value)})`, script);
    }
    changes[field] = checked.data;
  }
  const readOnly = after.ReadOnly === true;
  delete changes.ReadOnly;
  if (Object.keys(changes).length === 0) return { record, dropped, readOnly };
  return { record: changed(site, record, changes, principal, zone), dropped, readOnly };
}

function changed(
  site: Site,
  record: ItemRecord,
  changes: Record<string, unknown>,
  principal: Principal,
  zone: string,
): ItemRecord {
  const { Title, Body, Status, Locked, Comments, Manager, Owner, ...rest } = changes as {
    Title?: string;
    Body?: string;
    Status?: number;
    Locked?: boolean;
    Comments?: string;
    Manager?: number;
    Owner?: number;
  } & Record<string, unknown>;
  const columns: Record<string, unknown> = {};
  const people: Record<string, unknown> = { Manager, Owner };
  for (const [field, value] of Object.entries(rest)) {
    // A date the API would answer unset (1899-12-30) empties the column, as a script copying it means.
    const unset = typeof value === 'string' && parseDateTime(value, zone) === parseDateTime(UNSET_DATE, zone);
    if (ISSUES_ONLY.includes(field)) people[field] = unset ? null : value;
    else columns[field] = unset ? null : value;
  }
  const now = Date.now();
  const locking = Locked === true && !record.locked;
  const locked = Locked ?? record.locked;
  return {
    ...record,
    title: Title ?? record.title,
    body: Body ?? record.body,
    status: Status ?? record.status,
    ...peopleAndTimes(site, people, zone, record),
    comments: withComment(record, Comments, principal, now),
    fields: { ...mergeFields(columns, zone, record.fields), Attachments: record.fields.Attachments },
    locked,
    lockedBy: locking ? principal.userId : locked ? record.lockedBy : undefined,
    lockedAt: locking ? now : locked ? record.lockedAt : undefined,
  };
}

/** `model.Comments = 'text'` adds one comment first, as the reference prepends it; a blank one adds none. */
function withComment(record: ItemRecord, text: string | undefined, principal: Principal, time: number) {
  if (text === undefined || text.trim() === '') return record.comments;
  const comments = record.comments ?? [];
  const commentId = Math.max(0, ...comments.map((comment) => comment.commentId)) + 1;
  return [{ commentId, createdAt: time, creator: principal.userId, body: text }, ...comments];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object' && value !== null && 'BigInt' in value) return 'bigint';
  if (typeof value === 'object' && value !== null && 'InvalidDate' in value) return 'invalid Date';
  if (typeof value === 'object' && value !== null && 'NotFinite' in value) return String(value.NotFinite);
  return Array.isArray(value) ? 'array' : typeof value;
}
