import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { now } from '../clock';
import { toRecord } from '../items/record-repository';
import { getSite, toSite } from '../sites/repository';
import { queueTask } from '../tasks/repository';
import { recordDocument, siteDocument, UserNames } from './full-text';
import type { SearchDocument } from './index-store';
import { applyDocuments, tombstone } from './index-writer';

/**
 * The Items table's stream → the search index: a record or site created or changed gets its new document,
 * a deleted one its tombstone. Within a batch only the last image of each item counts. A site whose title
 * changed is reported, since its title is in the full text of every one of its records: those are
 * re-indexed by a background task, not here.
 */

export interface TenantChanges {
  /** The stream records these changes come from, in stream order (for a partial batch response). */
  readonly records: DynamoDBRecord[];
  /** The newest image of each item, or its deletion. */
  readonly items: Map<
    number,
    { readonly after?: Record<string, unknown>; readonly before?: Record<string, unknown> }
  >;
  readonly renamedSites: Set<number>;
}

export function searchChangesOf(records: readonly DynamoDBRecord[]): Map<number, TenantChanges> {
  const byTenant = new Map<number, TenantChanges>();
  for (const record of records) {
    const before = image(record.dynamodb?.OldImage);
    const after = image(record.dynamodb?.NewImage);
    const item = after ?? before;
    if (!item || (item.Kind !== 'record' && item.Kind !== 'site')) continue;
    const tenantId = Number(item.TenantId);
    const id = Number(item.Kind === 'site' ? item.SiteId : item.RecordId);
    let changes = byTenant.get(tenantId);
    if (!changes) {
      changes = { records: [], items: new Map(), renamedSites: new Set() };
      byTenant.set(tenantId, changes);
    }
    changes.records.push(record);
    changes.items.set(id, { after, before });
    if (item.Kind === 'site' && before && after && before.Title !== after.Title) changes.renamedSites.add(id);
  }
  return byTenant;
}

/** Writes the documents of one tenant's changes; the sites renamed, for a rebuild of their records. */
export async function indexChanges(tenantId: number, changes: TenantChanges): Promise<{ written: number }> {
  const users = new UserNames();
  const siteTitles = new Map<number, Promise<string | undefined>>();
  const titleOf = (siteId: number) => {
    let title = siteTitles.get(siteId);
    if (!title) {
      title = getSite(tenantId, siteId).then((site) => site?.title);
      siteTitles.set(siteId, title);
    }
    return title;
  };
  const docs: SearchDocument[] = [];
  for (const [id, { after, before }] of changes.items) {
    if (!after) {
      docs.push(tombstone(id, Number(before?.SiteId), Number(before?.UpdatedAt)));
    } else if (after.Kind === 'site') {
      docs.push(await siteDocument(toSite(after), users));
    } else {
      const record = toRecord(after);
      const title = await titleOf(record.siteId);
      // The site is gone (deletesite removes its records next): nothing to index.
      if (title !== undefined) {
        const doc = await recordDocument(record, title, users);
        // Restored from the recycle bin: it replaces the tombstone its deletion left.
        docs.push(after.Restored === true && !before ? { ...doc, restored: true } : doc);
      }
    }
  }
  const { written, failed } = await applyEach(tenantId, docs);
  for (const siteId of changes.renamedSites) {
    await queueTask({ tenantId, kind: 'RebuildSearchIndexes', scopeId: siteId }, now());
  }
  if (failed.length > 0) throw new DocumentsNotIndexedError(tenantId, failed);
  return { written };
}

/** Some documents of a tenant's changes could not be written; the others were. */
export class DocumentsNotIndexedError extends Error {
  override name = 'DocumentsNotIndexedError';

  constructor(
    readonly tenantId: number,
    readonly failures: readonly { readonly id: number; readonly error: unknown }[],
  ) {
    super(`search documents of tenant ${tenantId} not indexed: ${failures.map(({ id }) => id).join(', ')}`, {
      cause: failures[0]?.error,
    });
  }
}

/**
 * The documents as one batch; when that fails, each on its own, so that one document that cannot be
 * written (a fault of its own) holds back none of the others. The ones that still fail, with why.
 */
async function applyEach(
  tenantId: number,
  docs: readonly SearchDocument[],
): Promise<{ written: number; failed: { id: number; error: unknown }[] }> {
  try {
    return { ...(await applyDocuments(tenantId, docs)), failed: [] };
  } catch {
    let written = 0;
    const failed: { id: number; error: unknown }[] = [];
    // One at a time: each writes the tenant's one directory, which concurrent writers only contend for.
    for (const doc of docs) {
      try {
        written += (await applyDocuments(tenantId, [doc])).written;
      } catch (error) {
        failed.push({ id: doc.id, error });
      }
    }
    return { written, failed };
  }
}

function image(value: Record<string, AttributeValue> | undefined): Record<string, unknown> | undefined {
  return value ? unmarshall(value as Record<string, SdkAttributeValue>) : undefined;
}
