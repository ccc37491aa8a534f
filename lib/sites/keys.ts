/**
 * Key builders for the Items table, in one place. Every key but the id counter starts with the tenant, so
 * another tenant's id is simply not found. Sites and records share one id sequence (as in the reference),
 * global rather than per tenant so that an id names one item only.
 */
const item = (tenantId: number, id: number) => `T${tenantId}#ID#${id}`;

/** The id of a site or record from its item's `pk` (`T<tenant>#ID#<id>`). */
export const idOfItemKey = (pk: string) => Number(pk.split('#').at(-1));

/** Ids padded to 15 digits sort as numbers in the indexes' string sort keys. */
export const orderKey = (id: number) => String(id).padStart(15, '0');

/** The sort-key prefix of the record permission rows kept beside a site. */
export const RECORD_PERMISSIONS = 'RECPERM#';

export const itemKeys = {
  counter: () => ({ pk: 'COUNTER', sk: 'ID' }),
  /** A site or a record. */
  item: (tenantId: number, id: number) => ({ pk: item(tenantId, id), sk: 'ITEM' }),
  /** A site's record count, beside the site, so record writes never touch the site item (nor its stream). */
  recordCount: (tenantId: number, siteId: number) => ({ pk: item(tenantId, siteId), sk: 'RECORDCOUNT' }),
  /** A site's count of records with one Status (an empty Status counts as 0), beside its record count. */
  statusCount: (tenantId: number, siteId: number, status: number) => ({
    pk: item(tenantId, siteId),
    sk: `RECORDCOUNT#S${status}`,
  }),
  /**
   * A record's own permission rows, copied beside its site so that the records a caller may read only by
   * such rows are found with one query; written in the record's own transactions, deleted with the site.
   */
  recordPermissions: (tenantId: number, siteId: number, recordId: number) => ({
    pk: item(tenantId, siteId),
    sk: `${RECORD_PERMISSIONS}${orderKey(recordId)}`,
  }),
  /**
   * The record that upserts with one set of key values (a digest of the Keys' columns, their values and
   * the View) resolve to, so that concurrent upserts create it once (lib/items/upsert-claims.ts); deleted
   * with the site.
   */
  upsertClaim: (tenantId: number, siteId: number, digest: string) => ({
    pk: item(tenantId, siteId),
    sk: `UPSERTKEY#${digest}`,
  }),
  /**
   * A site's last server-script failures (lib/scripts/script-errors.ts), one item beside the site; site 0
   * holds the tenant's background scripts' failures. Deleted with the site.
   */
  scriptErrors: (tenantId: number, siteId: number) => ({ pk: item(tenantId, siteId), sk: 'SCRIPTERRORS' }),
  /** A site's API calls on one UTC day (Api.LimitPerSite); deleted with the site. */
  apiCount: (tenantId: number, siteId: number, day: string) => ({
    pk: item(tenantId, siteId),
    sk: `API#${day}`,
  }),
} as const;

/** The `Contents` index: a site's child sites and, apart, its records, in id order. */
export const containerKeys = {
  children: (tenantId: number, parentId: number) => `T${tenantId}#CHILDREN#${parentId}`,
  records: (tenantId: number, siteId: number) => `T${tenantId}#RECORDS#${siteId}`,
} as const;

/** The `TenantSites` index: every site of a tenant. */
export const tenantSitesKey = (tenantId: number) => `T${tenantId}#SITES`;

/**
 * The reference's default order, UpdatedTime descending then id descending, as an ascending string: the
 * sort key of the `RecentRecords` and `RecordsByStatus` indexes.
 */
export const recentKey = (updatedAt: number, recordId: number) =>
  `${String(9_999_999_999_999 - updatedAt).padStart(13, '0')}#${String(999_999_999_999_999 - recordId).padStart(15, '0')}`;

/** The `RecordsByStatus` index: a site's records of one Status (an empty Status is 0). */
export const statusKey = (tenantId: number, siteId: number, status: number) =>
  `T${tenantId}#RECORDS#${siteId}#S${status}`;
