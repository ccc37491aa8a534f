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
const MAX_FILE_CHANGES = 96;
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
  const owned = new Set(guidsOf(before?.fields.Attachments ?? {}));
  const columns: Record<string, Attachment[]> = {};
  const listed = new Set<string>();
  for (const [column, entries] of Object.entries(requested)) {
    const list: Attachment[] = [];
    let changed = false;
    for (const entry of entries) {
      if (entry.Deleted === true) continue;
      if (typeof entry.Base64 === 'string' || typeof entry.Base64Binary === 'string') {
        // Inline: always a new file under a new GUID, as the reference does.
        const binary = await storeInlineFile(principal, recordId, column, entry as InlineEntry, time);
        items.push(repository.insertItem(binary), commitInlineItem(binary));
        list.push(entryOf(binary, binary.fileName));
        changed = true;
        continue;
      }
      if (typeof entry.Guid !== 'string')
        throw new BadRequestError(`${column}: an entry without Guid or Base64`);
      const guid = entry.Guid.toUpperCase();
      if (!GUID.test(guid)) throw new BadRequestError(`${column}: ${entry.Guid} is no GUID`);
      if (listed.has(guid)) throw new BadRequestError(`${column}: ${guid} listed twice`);
      listed.add(guid);
      if (owned.has(guid)) {
        list.push({ ...withoutFlags(entry), Guid: guid });
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
      list.push(entryOf(binary, entry.Name));
      changed = true;
    }
    if (changed) checkColumnLimits(site, column, list);
    columns[column] = list;
  }

  for (const guid of embeddedGuids(texts)) {
    if (listed.has(guid) || owned.has(guid)) continue;
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

  for (const guid of owned) {
    if (listed.has(guid)) continue;
    const binary = await repository.getBinary(principal.tenantId, guid);
    if (binary?.attached && binary.referenceId === recordId) items.push(repository.deleteItem(binary));
  }
  if (items.length > MAX_FILE_CHANGES) {
    throw new BadRequestError(`${items.length} file changes in one write; at most ${MAX_FILE_CHANGES}`);
  }
  return { columns, items };
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

function withoutFlags(entry: Attachment): Attachment {
  const { Added: _added, Deleted: _deleted, ...rest } = entry;
  return rest as Attachment;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
