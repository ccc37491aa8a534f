import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  OverLimitQuantityError,
  OverLimitSizeError,
  OverTotalLimitSizeError,
} from '../errors';
import {
  commitInlineItem,
  discardingOnFailure,
  type InlineEntry,
  storeInlineFile,
} from '../files/inline-files';
import type { Binary } from '../files/model';
import * as repository from '../files/repository';
import type { Site } from '../sites/model';
import type { Attachment, ItemRecord } from './model';

/**
 * Attachments of records (reference/pleasanter-behaviour.md §4.4–4.5, CONTRACT section 6): which uploaded
 * files a record write may take, what its columns then list, and the rows that move with it. A file is
 * taken only when the caller uploaded it and it is attached nowhere yet, or when it already belongs to the
 * record; a file embedded in Body or a Description by its GUID is taken on the same terms, if it was
 * uploaded for the record's site.
 */

export type TransactItem =
  | ReturnType<typeof commitInlineItem>
  | ReturnType<typeof repository.attachItem>
  | ReturnType<typeof repository.replaceContentItem>
  | ReturnType<typeof repository.deleteItem>
  | ReturnType<typeof repository.insertItem>;

export interface AttachmentPlan {
  /** The attachment columns as the record stores them. */
  readonly columns: Record<string, Attachment[]>;
  /** Written in the record's own transaction; the Binaries stream then removes what S3 no longer needs. */
  readonly items: TransactItem[];
}

/** DynamoDB takes 100 writes in a transaction; the record's own take at most three of them. */
export const MAX_FILE_CHANGES = 96;
const GUID = /^[0-9A-F]{32}$/;
const EMBEDDED_GUID = /(?<![0-9A-Za-z])[0-9A-Fa-f]{32}(?![0-9A-Za-z])/g;
/** Embedded GUIDs looked up per write, at most: text is free-form, lookups are not. */
const MAX_EMBEDDED = 100;

/** The column settings an attachment column can carry in SiteSettings.Columns (the reference's names). */
export interface AttachmentColumnSettings {
  readonly limitQuantity: number;
  readonly limitSizeMb: number;
  readonly totalLimitSizeMb: number;
  readonly overwriteSameFileName: boolean;
}

export function columnSettings(site: Site, column: string): AttachmentColumnSettings {
  const defaults = settings().BinaryStorage;
  const columns = site.siteSettings.Columns;
  const own = Array.isArray(columns)
    ? (columns.find((entry) => isObject(entry) && entry.ColumnName === column) as Record<string, unknown>)
    : undefined;
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    limitQuantity: number(own?.LimitQuantity, defaults.LimitQuantity),
    limitSizeMb: number(own?.LimitSize, defaults.LimitSize),
    totalLimitSizeMb: number(own?.TotalLimitSize, defaults.LimitTotalSize),
    overwriteSameFileName: own?.OverwriteSameFileName === true,
  };
}

/**
 * What a record create (no `before`) or update does to files: `requested` are the attachment columns after
 * the write as the caller gave them, `texts` the Body and Description values after it.
 */
export async function planAttachments(
  principal: Principal,
  site: Site,
  recordId: number,
  before: ItemRecord | undefined,
  requested: Readonly<Record<string, readonly Attachment[]>>,
  texts: readonly (string | undefined)[],
  time: number,
): Promise<AttachmentPlan> {
  // Inline files already stored when a later entry is refused leave no bytes behind.
  const items: TransactItem[] = [];
  return discardingOnFailure(
    () => items,
    () => plan(items, principal, site, recordId, before, requested, texts, time),
  );
}

async function plan(
  items: TransactItem[],
  principal: Principal,
  site: Site,
  recordId: number,
  before: ItemRecord | undefined,
  requested: Readonly<Record<string, readonly Attachment[]>>,
  texts: readonly (string | undefined)[],
  time: number,
): Promise<AttachmentPlan> {
  const stored = storedEntries(before);
  const columns: Record<string, Attachment[]> = {};
  const listed = new Set<string>();
  const deleted = new Set<string>();
  /** Per column, the names of the files this write adds to it (OverwriteSameFileName replaces by name). */
  const added = new Map<string, Set<string>>();
  for (const [column, entries] of Object.entries(requested)) {
    const list: Attachment[] = [];
    const names = new Set<string>();
    for (const entry of entries) {
      if (entry.Deleted === true) {
        if (typeof entry.Guid === 'string') deleted.add(entry.Guid.toUpperCase());
        continue;
      }
      if (typeof entry.Base64 === 'string' || typeof entry.Base64Binary === 'string') {
        // Inline: always a new file under a new GUID, as the reference does.
        const binary = await storeInlineFile(principal, recordId, column, entry as InlineEntry, time);
        items.push(repository.insertItem(binary), commitInlineItem(binary));
        list.push(entryOf(binary, binary.fileName));
        names.add(binary.fileName);
        continue;
      }
      if (typeof entry.Guid !== 'string')
        throw new BadRequestError(`${column}: an entry without Guid or Base64`);
      const guid = entry.Guid.toUpperCase();
      if (!GUID.test(guid)) throw new BadRequestError(`${column}: ${entry.Guid} is no GUID`);
      if (listed.has(guid)) throw new BadRequestError(`${column}: ${guid} listed twice`);
      listed.add(guid);
      const own = stored.get(guid);
      if (own) {
        // What the server knows of its own file stays, whatever the caller echoes; only the name may change.
        list.push(await keptEntry(principal, own, entry.Name));
        continue;
      }
      const binary = await repository.getBinary(principal.tenantId, guid);
      if (!binary) throw new NotFoundError(`${column}: no file ${guid} in the tenant`);
      if (!(binary.attached && binary.referenceId === recordId)) {
        if (binary.attached || binary.creator !== principal.userId) {
          throw new ForbiddenError(`${column}: file ${guid} is not the caller's to attach`);
        }
        items.push(repository.attachItem(binary, recordId, principal.userId, time));
      }
      const attached = entryOf(binary, entry.Name);
      list.push(attached);
      names.add(attached.Name);
    }
    columns[column] = list;
    added.set(column, names);
  }

  // The files a write does not name stay where they were, after the ones it names (reference 5), unless
  // deleted, or replaced by a new file of the same name in a column with OverwriteSameFileName.
  for (const [column, entries] of Object.entries(before?.fields.Attachments ?? {})) {
    const names = added.get(column) ?? new Set<string>();
    const replacing = names.size > 0 && columnSettings(site, column).overwriteSameFileName;
    const list = columns[column] ?? [];
    for (const entry of entries) {
      const guid = entry.Guid.toUpperCase();
      if (listed.has(guid) || deleted.has(guid) || (replacing && names.has(entry.Name))) continue;
      listed.add(guid);
      list.push(await keptEntry(principal, entry));
    }
    columns[column] = list;
  }
  for (const [column, names] of added) {
    if (names.size > 0) checkColumnLimits(site, column, columns[column] ?? []);
  }

  for (const guid of embeddedGuids(texts)) {
    if (listed.has(guid) || stored.has(guid)) continue;
    const binary = await repository.getBinary(principal.tenantId, guid);
    if (
      binary &&
      !binary.attached &&
      binary.referenceId === site.siteId &&
      binary.creator === principal.userId
    ) {
      items.push(repository.attachItem(binary, recordId, principal.userId, time));
    }
  }

  for (const guid of stored.keys()) {
    if (listed.has(guid)) continue;
    const binary = await repository.getBinary(principal.tenantId, guid);
    if (binary?.attached && binary.referenceId === recordId) items.push(repository.deleteItem(binary));
  }
  if (items.length > MAX_FILE_CHANGES) {
    throw new BadRequestError(`${items.length} file changes in one write; at most ${MAX_FILE_CHANGES}`);
  }
  return { columns, items };
}

/** The record's own column entries by upper-case GUID. */
function storedEntries(record: ItemRecord | undefined): Map<string, Attachment> {
  const entries = new Map<string, Attachment>();
  for (const list of Object.values(record?.fields.Attachments ?? {})) {
    for (const entry of list) entries.set(entry.Guid.toUpperCase(), entry);
  }
  return entries;
}

/** The facts of a stored file that the server keeps, whatever a caller sends. */
const FACTS = ['Size', 'ContentType', 'Extension', 'HashCode'] as const;

/**
 * A stored entry as the record keeps it, renamed when `name` is given. An entry that lost its facts (an
 * echo that earlier versions stored as sent) takes them again from the file's row.
 */
async function keptEntry(principal: Principal, stored: Attachment, name?: string): Promise<Attachment> {
  const guid = stored.Guid.toUpperCase();
  const own = Object.fromEntries(
    FACTS.filter((fact) => stored[fact] !== undefined).map((f) => [f, stored[f]]),
  );
  if (typeof stored.Size !== 'number' || stored.ContentType === undefined || stored.Extension === undefined) {
    const binary = await repository.getBinary(principal.tenantId, guid);
    if (binary) return { ...own, ...entryOf(binary, name || stored.Name) };
  }
  return { Guid: guid, Name: name || stored.Name, ...own };
}

/** 441 over the column's count, 442 for a file over its size, 443 over its total size. */
export function checkColumnLimits(site: Site, column: string, list: readonly Attachment[]): void {
  const limits = columnSettings(site, column);
  if (list.length > limits.limitQuantity) {
    throw new OverLimitQuantityError(limits.limitQuantity, `${column}: ${list.length} files`);
  }
  const sizes = list.map((entry) => (typeof entry.Size === 'number' ? entry.Size : 0));
  const largest = Math.max(0, ...sizes);
  if (largest > limits.limitSizeMb * 1024 * 1024) {
    throw new OverLimitSizeError(limits.limitSizeMb, `${column}: a file of ${largest} bytes`);
  }
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total > limits.totalLimitSizeMb * 1024 * 1024) {
    throw new OverTotalLimitSizeError(limits.totalLimitSizeMb, `${column}: ${total} bytes in all`);
  }
}

/** A column entry as stored: the caller's name for the file, the rest from the file's row. */
export function entryOf(binary: Binary, name?: string): Attachment {
  return {
    Guid: binary.guid,
    Name: name || binary.fileName,
    Size: binary.size,
    Extension: binary.extension,
    ContentType: binary.contentType,
  };
}

export function guidsOf(columns: Readonly<Record<string, readonly Attachment[]>>): string[] {
  return Object.values(columns).flatMap((entries) => entries.map((entry) => entry.Guid.toUpperCase()));
}

/** GUIDs written in text (`/binaries/<guid>/show` in Body or a Description), upper-cased, at most 100. */
export function embeddedGuids(texts: readonly (string | undefined)[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) {
    for (const match of text?.matchAll(EMBEDDED_GUID) ?? []) {
      found.add(match[0].toUpperCase());
      if (found.size >= MAX_EMBEDDED) return found;
    }
  }
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
