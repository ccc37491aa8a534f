import { getUser } from '../accounts/repository';
import type { ItemRecord } from '../items/model';
import type { Site } from '../sites/model';
import type { SearchDocument } from './index-store';
import { storedText } from './text';

/**
 * A site's or a record's search document, its full text built as the reference's FullText() builds it
 * (reference/pleasanter-behaviour.md section 5, CONTRACT section 9): the site's title, then the editor
 * columns (Title, Body, Status, then the Class, Num, Date and Description columns by name), then the
 * creator's and the updater's names. Check and attachment columns add no text, as their reference
 * defaults (FullTextType None) add none.
 */

/** User names by id, each read once per batch of changes. */
export class UserNames {
  private readonly names = new Map<number, Promise<string>>();

  of(userId: number): Promise<string> {
    let name = this.names.get(userId);
    if (!name) {
      name = getUser(userId).then((user) => user?.name ?? '');
      this.names.set(userId, name);
    }
    return name;
  }
}

export async function recordDocument(
  record: ItemRecord,
  siteTitle: string,
  users: UserNames,
): Promise<SearchDocument> {
  const { fields } = record;
  const columns = [
    record.title,
    record.body ?? '',
    record.status === undefined ? '' : String(record.status),
    ...byName(fields.Class),
    ...byName(fields.Num).map(String),
    ...byName(fields.Date),
    ...byName(fields.Description),
  ];
  const text = storedText([
    siteTitle,
    ...columns,
    await users.of(record.creator),
    await users.of(record.updator),
  ]);
  return {
    id: record.recordId,
    siteId: record.siteId,
    kind: 'record',
    title: record.title,
    text,
    ver: record.ver,
    updatedAt: record.updatedAt,
  };
}

/** A site's own document: its title and its creator's and updater's names; its SiteId is its own id. */
export async function siteDocument(
  site: Omit<Site, 'siteSettings'>,
  users: UserNames,
): Promise<SearchDocument> {
  const text = storedText([site.title, await users.of(site.creator), await users.of(site.updator)]);
  return {
    id: site.siteId,
    siteId: site.siteId,
    kind: 'site',
    title: site.title,
    text,
    ver: site.ver,
    updatedAt: site.updatedAt,
  };
}

function byName<T>(values: Record<string, T>): T[] {
  return Object.keys(values)
    .sort()
    .map((name) => values[name] as T);
}
