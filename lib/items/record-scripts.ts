import type { Site } from '../sites/model';
import type { ItemRecord } from './model';

/**
 * Server scripts around the record APIs (CONTRACT section 8). lib/scripts implements them above this
 * layer, and only the handlers that run scripts pass them in, so the other bundles do not carry the
 * sandbox. Without them, a record operation runs as if the site had no scripts.
 */
export interface RecordScripts {
  /** BeforeCreate, BeforeUpdate, BeforeDelete: the record to save as the scripts left it; throws to refuse. */
  before(
    condition: 'BeforeCreate' | 'BeforeUpdate' | 'BeforeDelete',
    site: Site,
    record: ItemRecord,
    saved?: ItemRecord,
  ): Promise<ItemRecord>;
  /** AfterCreate, AfterUpdate, AfterDelete: the save stands whatever the scripts do. */
  after(
    condition: 'AfterCreate' | 'AfterUpdate' | 'AfterDelete',
    site: Site,
    record: ItemRecord,
    saved?: ItemRecord,
  ): Promise<void>;
  /** WhenloadingRecord: the record as the answer shows it; what is stored is not touched. */
  loading(site: Site, record: ItemRecord): Promise<ItemRecord>;
  /** BeforeBulkDelete: once before a bulk delete (model empty, no record's own conditions); throws to refuse. */
  beforeBulk(condition: 'BeforeBulkDelete', site: Site): Promise<void>;
  /** AfterBulkDelete: once after it; the delete stands whatever the scripts do. */
  afterBulk(condition: 'AfterBulkDelete', site: Site): Promise<void>;
}

export const noScripts: RecordScripts = {
  before: async (_condition, _site, record) => record,
  after: async () => undefined,
  loading: async (_site, record) => record,
  beforeBulk: async () => undefined,
  afterBulk: async () => undefined,
};

/** Runs WhenloadingRecord on a page, one record after another, each with its own site's scripts. */
export async function loadingAll(
  scripts: RecordScripts,
  sites: readonly Site[],
  records: readonly ItemRecord[],
): Promise<ItemRecord[]> {
  const bySite = new Map(sites.map((site) => [site.siteId, site]));
  const shown: ItemRecord[] = [];
  for (const record of records) {
    const site = bySite.get(record.siteId);
    shown.push(site ? await scripts.loading(site, record) : record);
  }
  return shown;
}
