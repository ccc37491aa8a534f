import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../accounts/principal';
import { ApiError, ForbiddenError } from '../errors';
import type { Comment, ItemRecord } from '../items/model';
import { checkedWrite, type TableDesign } from '../items/record-design';
import { canOnRecord } from '../items/record-permissions';
import { fromRecord, type RecordWrite, recordsByKeys } from '../items/record-repository';
import { storedValue } from '../items/record-values';
import { changedRecord, newRecord, requireUnlocked } from '../items/records';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { Permission, sitePermission } from '../sites/permissions';
import { reserveItemIds } from '../sites/store';
import { assertItemSize } from '../storage/queries';
import type { ImportedComment, ImportRow, RowError } from './rows';

/**
 * Rows into record writes, a page at a time, through the normal write path (lib/items/records.ts
 * newRecord and changedRecord: defaults, formulas, titles; record-design.ts checkedWrite: MaxLength,
 * ServerRegexValidation, NoDuplication): a row whose Key matches one record updates it, none creates a
 * record, several are an invalid row. Kiroku is exact where the reference is loose: a Key value given by
 * two rows of one file is an invalid row too (the reference would update what the earlier row wrote), and
 * so is a row the caller may not write or that takes a NoDuplication value another row takes. A matched
 * record that the row leaves unchanged is not written and not counted.
 */

export interface ImportSettings {
  /** The Key column (a ColumnName) when the import may update (UpdatableImport). */
  readonly key?: string;
  readonly keyLabel?: string;
}

/** A page of planned writes, each with its row; `rows` counts the page's rows, unchanged ones too. */
export interface PlannedPage {
  readonly rows: number;
  readonly writes: readonly (RecordWrite & { readonly row: number })[];
  readonly added: number;
  readonly updated: number;
}

export class ImportPlanner {
  private readonly seenKeys = new Map<string, number>();
  private readonly uniqueValues = new Map<string, Map<string, number>>();
  private siteBits: number | undefined;

  constructor(
    private readonly principal: Principal,
    private readonly site: Site,
    private readonly design: TableDesign,
    private readonly settings: ImportSettings,
    /** Key text → the ids of the site's records holding it (none for the ID column: read by id). */
    private readonly keyIndex: ReadonlyMap<string, readonly number[]> | undefined,
    private readonly time: number,
  ) {}

  /** The page's writes, or what is wrong with its rows (then nothing of it is to be written). */
  async plan(rows: readonly ImportRow[]): Promise<{ page: PlannedPage; errors: RowError[] }> {
    const errors: RowError[] = [];
    const matches = this.matchesOf(rows, errors);
    const befores = await this.recordsOf([...new Set([...matches.values()])]);
    const creates = rows.filter((row) => !befores.has(matches.get(row) ?? -1)).length;
    let nextId = creates > 0 ? await reserveItemIds(creates) : 0;
    const writes: PlannedPage['writes'][number][] = [];
    let added = 0;
    for (const row of rows) {
      const before = befores.get(matches.get(row) ?? -1);
      const id = before ? before.recordId : nextId++;
      try {
        const write = await this.writeOf(row, before, id);
        if (!write) continue;
        this.requireDistinct(row.row, write.after, errors);
        writes.push({ ...write, row: row.row });
        if (!before) added++;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        errors.push(this.rowError(row.row, error));
      }
    }
    return { page: { rows: rows.length, writes, added, updated: writes.length - added }, errors };
  }

  /** Each keyed row's one matching record id; a Key value two rows give, or several records hold, is an error. */
  private matchesOf(rows: readonly ImportRow[], errors: RowError[]): Map<ImportRow, number> {
    const matches = new Map<ImportRow, number>();
    const { key, keyLabel = key ?? '' } = this.settings;
    if (!key) return matches;
    for (const row of rows) {
      if (row.key === undefined) continue;
      const earlier = this.seenKeys.get(row.key);
      if (earlier !== undefined) {
        errors.push({
          Row: row.row,
          Column: keyLabel,
          Message: `the value ${row.key} is the key of row ${earlier} too`,
        });
        continue;
      }
      this.seenKeys.set(row.key, row.row);
      const ids = this.keyIndex ? (this.keyIndex.get(row.key) ?? []) : [Number(row.key)];
      if (ids.length > 1) {
        errors.push({
          Row: row.row,
          Column: keyLabel,
          Message: `There are multiple records that match the conditions. CSV file ${row.row} record, column name: ${keyLabel}, value: ${row.key}`,
        });
      } else if (ids[0] !== undefined) matches.set(row, ids[0]);
    }
    return matches;
  }

  private async recordsOf(ids: readonly number[]): Promise<Map<number, ItemRecord>> {
    const keys = ids.map((id) => itemKeys.item(this.site.tenantId, id));
    const records = await recordsByKeys(keys);
    return new Map(records.filter((r) => r.siteId === this.site.siteId).map((r) => [r.recordId, r]));
  }

  /** The row's write on the record as it stands (none when the row changes nothing), checked. */
  private async writeOf(
    row: ImportRow,
    before: ItemRecord | undefined,
    id: number,
  ): Promise<RecordWrite | undefined> {
    const { principal, site, time } = this;
    if (before) {
      if (!(await canOnRecord(principal, site, before, Permission.Update)))
        throw new ForbiddenError(`user ${principal.userId} lacks Update on record ${before.recordId}`);
      await requireUnlocked(principal, before);
      const { after: draft, extra } = await changedRecord(principal, site, before, row.input, time);
      const after = this.withComments(draft, row.comments, before.comments);
      if (sameContent(before, after)) return undefined;
      assertItemSize(fromRecord(after));
      return { before, after, extra: [...extra, ...(await checkedWrite(principal, site, before, after))] };
    }
    this.siteBits ??= await sitePermission(principal, site);
    if ((this.siteBits & Permission.Create) === 0)
      throw new ForbiddenError(`user ${principal.userId} lacks Create on site ${site.siteId}`);
    const { record: draft, extra } = await newRecord(principal, site, row.input, id, time);
    const after = this.withComments(draft, row.comments, undefined);
    assertItemSize(fromRecord(after));
    return { after, extra: [...extra, ...(await checkedWrite(principal, site, undefined, after))] };
  }

  /** Comments that a row gives replace the record's, newest first as stored. */
  private withComments(
    record: ItemRecord,
    comments: readonly ImportedComment[] | undefined,
    kept: readonly Comment[] | undefined,
  ): ItemRecord {
    // An empty Body cell leaves the record without one, as a record that never had one.
    if (record.body === '') return this.withComments({ ...record, body: undefined }, comments, kept);
    if (!comments || sameComments(comments, kept)) return { ...record, comments: kept };
    const replaced = comments.map((comment, index) => ({
      commentId: index + 1,
      createdAt: comment.createdAt ?? this.time,
      creator: comment.creator ?? this.principal.userId,
      body: comment.body,
    }));
    return { ...record, comments: replaced.reverse() };
  }

  /** NoDuplication values are distinct across the file (against other records, their writes' conditions). */
  private requireDistinct(row: number, record: ItemRecord, errors: RowError[]): void {
    for (const column of this.design.unique) {
      const value = storedValue(record, column.columnName);
      if (value === undefined || value === '') continue;
      const seen = this.uniqueValues.get(column.columnName) ?? new Map<string, number>();
      this.uniqueValues.set(column.columnName, seen);
      const earlier = seen.get(String(value));
      if (earlier !== undefined)
        errors.push({
          Row: row,
          Column: column.labelText,
          Message: `Cannot be updated because ${column.labelText} is duplicated (row ${earlier}).`,
        });
      else seen.set(String(value), row);
    }
  }

  private rowError(row: number, error: ApiError): RowError {
    const named = /^(\w+) (?:is longer|does not match)/.exec(error.reason ?? '')?.[1];
    const column = named ? this.design.columns.byName.get(named)?.labelText : undefined;
    const message = error.statusCode === 400 ? (error.problems[0]?.Problem ?? error.message) : error.message;
    return { Row: row, Column: column ?? '', Message: message };
  }
}

/** A record's stored text of a column, as a row's Key cell reads (lib/imports/rows.ts keyTextOf). */
export function storedText(record: ItemRecord, columnName: string): string | undefined {
  const value = storedValue(record, columnName);
  return value === undefined || value === '' ? undefined : String(value);
}

/** The cell's comments are the record's, oldest first, to the second (the export writes no milliseconds). */
function sameComments(comments: readonly ImportedComment[], kept: readonly Comment[] = []): boolean {
  const second = (time: number | undefined) => (time === undefined ? undefined : Math.floor(time / 1000));
  const oldest = [...kept].reverse();
  return (
    comments.length === oldest.length &&
    comments.every((comment, index) => {
      const stored = oldest[index];
      return (
        stored?.body === comment.body &&
        (comment.creator ?? stored.creator) === stored.creator &&
        (comment.createdAt === undefined || second(comment.createdAt) === second(stored.createdAt))
      );
    })
  );
}

const BOOKKEEPING = ['Ver', 'Updator', 'UpdatedAt', 'RecentKey'];

/** Equal but for what every write changes (its version, updater and time). */
function sameContent(before: ItemRecord, after: ItemRecord): boolean {
  const content = (record: ItemRecord) => {
    const item = JSON.parse(JSON.stringify(fromRecord(record))) as Record<string, unknown>;
    for (const name of BOOKKEEPING) delete item[name];
    return item;
  };
  return isDeepStrictEqual(content(before), content(after));
}
