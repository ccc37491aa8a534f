import type { Route } from './routes';
import type { TableKey } from './storage/tables';

/**
 * The stream handlers: each entry feeds the stream of `table` to `functions/<handler>.ts`'s export
 * `handler`. The CDK app creates one event source mapping per entry and the local runtime one poller
 * subscription, from this same list. A table listed here must have `stream: true` in lib/storage/tables.ts.
 */
export interface StreamSubscriptionDefinition {
  readonly table: TableKey;
  readonly handler: string;
  /** Besides reading its stream: the tables the handler may touch, and how, as in the route table. */
  readonly tables?: Route['tables'];
  /** 'delete': removes objects (and aborts uploads) only, never reads or writes them. */
  readonly bucket?: Route['bucket'] | 'delete';
  /** The handler sends mail (Mail notifications): SES in AWS, as a route's `mail` (lib/routes/route.ts). */
  readonly mail?: boolean;
  /** Stream records per invocation (default 100). */
  readonly batchSize?: number;
  /** Concurrent batches per shard, in key order (default 1). */
  readonly parallelization?: number;
  /** Lambda timeout in seconds (default 29). */
  readonly timeoutSeconds?: number;
  /** Lambda memory in MB (default 1024). */
  readonly memoryMb?: number;
}

export const streamSubscriptions: readonly StreamSubscriptionDefinition[] = [
  // The site-name index of GetClosestSiteId and integrated sites, kept from the sites' changes.
  { table: 'items', handler: 'site-name-index', tables: { items: 'read', siteIndexes: 'write' } },
  // The files of records removed without passing through the recycle bin (a safety net: none does today).
  {
    table: 'items',
    handler: 'record-files',
    tables: { items: 'read', recycleBin: 'read', binaries: 'write' },
  },
  // The recycle bin: the files and history of a record gone for good (purged, or expired by the TTL).
  {
    table: 'recycleBin',
    handler: 'recycle-bin',
    tables: { items: 'read', recycleBin: 'read', binaries: 'write', history: 'write' },
  },
  // The search index, kept from the records' and sites' changes (Search.CreateIndexes).
  {
    table: 'items',
    handler: 'search-index',
    tables: { items: 'read', accounts: 'read', searchIndex: 'write', tasks: 'write' },
    timeoutSeconds: 120,
  },
  // Site notifications of records' changes, queued as deliveries (lib/notifications/record-notices.ts).
  {
    table: 'items',
    handler: 'notifications',
    tables: { items: 'read', accounts: 'read', deliveries: 'write' },
  },
  // The background-task worker: one page of a pending task per change of its row (lib/tasks/worker.ts).
  // One record per invocation: one page. Tasks of different keys run side by side (parallelization).
  // A stuck task (its retries spent, its batch in the dead-letter queue) moves on when its scope is
  // requested again, which touches its row.
  {
    table: 'tasks',
    handler: 'background-tasks',
    // Imports write records (items), read their uploaded CSV (binaries, the bucket) and stage pages
    // there; exports write their file and register it (binaries).
    tables: {
      tasks: 'write',
      items: 'write',
      history: 'write',
      recycleBin: 'write',
      accounts: 'read',
      searchIndex: 'write',
      siteIndexes: 'write',
      binaries: 'write',
    },
    bucket: 'write',
    batchSize: 1,
    parallelization: 10,
    timeoutSeconds: 300,
    memoryMb: 1024,
  },
  // S3 objects of removed or overwritten files, and what abandoned uploads leave.
  { table: 'binaries', handler: 'binary-objects', bucket: 'delete' },
  // Notifications' deliveries (lib/notifications/sender.ts): each batch's attempts at once, each at most
  // 10 s; batches of different sites side by side, so a hanging receiver holds back only its own site's.
  // Mail notices expand [UserN]-style addresses (accounts).
  {
    table: 'deliveries',
    handler: 'deliveries',
    tables: { deliveries: 'write', accounts: 'read' },
    mail: true,
    batchSize: 100,
    parallelization: 10,
    timeoutSeconds: 60,
    memoryMb: 512,
  },
];
