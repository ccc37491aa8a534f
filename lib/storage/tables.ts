/**
 * The one definition of Kiroku's DynamoDB tables, read by the CDK app (infra/) and by the local
 * runtime's bootstrap, so that the two cannot drift. Handlers find a table's name in the environment
 * variable named here.
 */

export interface TableDefinition {
  /** Logical name: the CDK construct id and, locally, the table name behind the prefix. */
  readonly id: string;
  /** Environment variable that carries the physical table name to the handlers. */
  readonly envVar: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  /** Epoch-seconds attribute that DynamoDB's TTL deletes by. No secondary index may sit on such a table:
   * DynamoDB Local never expires items of a table that has one (reference/local-emulators.md A). */
  readonly ttlAttribute?: string;
  /** NEW_AND_OLD_IMAGES stream, for the stream handlers that later issues hang off it. */
  readonly stream?: boolean;
  /** Global secondary indexes, for listings that must never Scan. Their key attributes are strings too. */
  readonly globalIndexes?: readonly GlobalIndexDefinition[];
}

export interface GlobalIndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** 'ALL' (the default), 'KEYS_ONLY', or the non-key attributes to copy into the index. */
  readonly projection?: 'ALL' | 'KEYS_ONLY' | { readonly include: readonly string[] };
}

export const tables = {
  sessions: {
    id: 'Sessions',
    envVar: 'KIROKU_TABLE_SESSIONS',
    partitionKey: 'SessionGuid',
    sortKey: 'Key',
    ttlAttribute: 'ExpiresAt',
  },
  accounts: {
    id: 'Accounts',
    envVar: 'KIROKU_TABLE_ACCOUNTS',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ExpiresAt',
  },
  /**
   * Sites and records (lib/sites/keys.ts). No TTL: DynamoDB Local never expires items of a table with a GSI.
   * The stream feeds the site-name index.
   */
  items: {
    id: 'Items',
    envVar: 'KIROKU_TABLE_ITEMS',
    partitionKey: 'pk',
    sortKey: 'sk',
    stream: true,
    globalIndexes: [
      // The child sites of a site and the records of a site, in id order. Keys only: paging by Offset
      // walks past index entries, which stay tiny this way, and record writes do not pay twice for
      // their whole item; a page's items are then read from the table by key.
      { name: 'Contents', partitionKey: 'ContainerKey', sortKey: 'OrderKey', projection: 'KEYS_ONLY' },
      // A site's records of one Status in the reference's default order (UpdatedTime desc, id desc);
      // the Status values present are the site's per-Status counts, so a first page, filtered by Status
      // or not, reads about one page of entries and items. One index: CloudFormation adds one per update.
      { name: 'RecordsByStatus', partitionKey: 'StatusKey', sortKey: 'RecentKey', projection: 'KEYS_ONLY' },
      // Every site of a tenant, with what a site tree needs but not SiteSettings, which can be large.
      {
        name: 'TenantSites',
        partitionKey: 'TenantSitesKey',
        sortKey: 'OrderKey',
        projection: {
          include: [
            'SiteId',
            'TenantId',
            'ParentId',
            'ReferenceType',
            'Title',
            'SiteName',
            'SiteGroupName',
            'InheritPermission',
            'Permissions',
            'Creator',
            'Updator',
            'CreatedAt',
            'UpdatedAt',
            'Ver',
            'Deleting',
          ],
        },
      },
    ],
  },
  /**
   * Each tenant's site-name index (lib/sites/index-store.ts): the bytes of each version in chunks, and a
   * pointer to the current version. No stream: its writes would only feed large images to no one.
   */
  siteIndexes: {
    id: 'SiteIndexes',
    envVar: 'KIROKU_TABLE_SITE_INDEXES',
    partitionKey: 'pk',
    sortKey: 'sk',
  },
  /**
   * Uploaded files (lib/binaries/): one row per file, keyed by tenant and GUID, and the state of each chunked
   * upload in progress, which expires through the TTL (hence no secondary index on this table).
   */
  binaries: {
    // Not 'Binaries': that is the bucket's construct id, and renaming a deployed bucket would replace it.
    id: 'Files',
    envVar: 'KIROKU_TABLE_BINARIES',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ExpiresAt',
    // Feeds the removal of S3 objects nothing points at any more (lib/files/cleanup.ts).
    stream: true,
  },
  /**
   * The full-text search index (lib/search/): per tenant, one row per indexed site or record (its normalised
   * full text) and one row per character n-gram and block of ids (a number set of the ids holding it).
   * No stream: nothing follows the index's own changes.
   */
  searchIndex: {
    id: 'SearchIndex',
    envVar: 'KIROKU_TABLE_SEARCH_INDEX',
    partitionKey: 'pk',
    sortKey: 'sk',
  },
  /**
   * Background tasks (lib/tasks/): a row per task and a row per scope that has one pending. The stream feeds
   * the worker, which does one page per event and records it, and so makes the next event.
   */
  tasks: {
    id: 'Tasks',
    envVar: 'KIROKU_TABLE_TASKS',
    partitionKey: 'pk',
    sortKey: 'sk',
    stream: true,
  },
  /**
   * Deliveries of notifications (lib/notifications/): a row per notice to send, written from the Items stream
   * or a server script, under its site and in time order; its attempts and outcome are kept on it until it
   * expires. The stream feeds the sender. A TTL and so no secondary index.
   */
  deliveries: {
    id: 'Deliveries',
    envVar: 'KIROKU_TABLE_DELIVERIES',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ExpiresAt',
    stream: true,
  },
  /**
   * Record history (lib/items/history-store.ts): the record as it was before each version up (CONTRACT 15),
   * one row per version under the record's site, in record and Ver order. History never expires, as in the
   * reference; the TTL attribute is there for the recycle bin's expiry of deleted records' history. A TTL
   * and so no secondary index. No stream: nothing follows history's own writes.
   */
  history: {
    id: 'History',
    envVar: 'KIROKU_TABLE_HISTORY',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ExpiresAt',
  },
  /**
   * The recycle bin (lib/sites/recycle-bin-store.ts, CONTRACT 15): deleted records and sites, each kept
   * whole under its site until it is restored, purged or expires by the TTL after Deletion.RetentionDays.
   * A TTL and so no secondary index. The stream feeds the removal of the files and history of an entry
   * that is gone for good (functions/recycle-bin.ts); the Items table's stream never sees bin entries.
   */
  recycleBin: {
    id: 'RecycleBin',
    envVar: 'KIROKU_TABLE_RECYCLE_BIN',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ExpiresAt',
    stream: true,
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof tables;

export const tableList: readonly TableDefinition[] = Object.values(tables);

/** The physical table name, as the deployment (or the local runtime) set it. */
export function tableName(key: TableKey, env: NodeJS.ProcessEnv = process.env): string {
  const table = tables[key];
  const name = env[table.envVar];
  if (!name) throw new Error(`${table.envVar} is not set`);
  return name;
}
