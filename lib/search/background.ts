import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import { readableRecords } from '../items/record-permissions';
import type { Outcome } from '../results';
import { Permission, sitePermission } from '../sites/permissions';
import { getSite, sitesOfTenant } from '../sites/repository';
import { existingItemIds } from '../sites/store';
import { startTask } from '../tasks/tasks';
import { formatLocal } from '../zoned-time';
import { getDocuments } from './index-store';
import { searchIndex } from './query';
import type { SearchInput } from './schemas';
import { boundedSearchWords, excerpt } from './text';

/** The endpoints' logic: `BackgroundTasks/{id}/RebuildSearchIndexes` and `search`. */

export const REBUILD_STARTED = 'Search index rebuild started.';

/**
 * Queues a rebuild of the tenant's index (siteId 0) or of one site and its own records. Anyone
 * authenticated may, as in the reference; a site must be one the caller can read.
 */
export async function requestRebuild(
  principal: Principal,
  siteId: number,
): Promise<{ outcome: Outcome; taskId: string }> {
  if (!settings().BackgroundTask.Enabled) throw new ForbiddenError('BackgroundTask.Enabled is false');
  if (siteId !== 0) {
    const site = await getSite(principal.tenantId, siteId);
    if (!site || ((await sitePermission(principal, site)) & Permission.Read) === 0) {
      throw new NotFoundError(`no readable site ${siteId} in tenant ${principal.tenantId}`);
    }
  }
  const task = await startTask(principal, 'RebuildSearchIndexes', siteId);
  return { outcome: { id: siteId, message: REBUILD_STARTED }, taskId: task.taskId };
}

const PAGE_SIZE = 200;

/** Every site and record the caller can read whose full text holds every word, newest first. */
export async function searchTenant(
  principal: Principal,
  input: SearchInput,
): Promise<Record<string, unknown>> {
  const words = boundedSearchWords(input.SearchText, 'SearchText');
  if (words.length === 0) throw new BadRequestError('SearchText has no words', 'SearchText');
  // Sites by their Read; records by their site's Read or their own rows (RecordPermissions).
  const readable = await readableRecords(principal, await sitesOfTenant(principal.tenantId));
  const indexed = await searchIndex(principal.tenantId, input.SearchText, { canRead: readable.canRead });
  // The index follows the items through their stream, a moment late (or longer, when the stream stalls):
  // a hit whose item is gone is never answered, whatever the index says (CONTRACT 9).
  const existing = await existingItemIds(
    principal.tenantId,
    indexed.map((match) => match.id),
  );
  const matches = indexed.filter((match) => existing.has(match.id));
  const offset = input.Offset ?? 0;
  const pageSize = input.PageSize ?? PAGE_SIZE;
  const zone = callerZone(principal);
  const page = matches.slice(offset, offset + pageSize);
  // Only the page's documents are read, for their titles and excerpts.
  const documents = await getDocuments(
    principal.tenantId,
    page.map((match) => match.id),
  );
  return {
    Offset: offset,
    PageSize: pageSize,
    TotalCount: matches.length,
    Data: page.map((match) => {
      const doc = documents.get(match.id);
      return {
        Id: match.id,
        SiteId: match.siteId,
        Kind: match.kind,
        Title: doc?.title ?? '',
        Excerpt: excerpt(doc?.text ?? '', words),
        UpdatedTime: formatLocal(match.updatedAt, zone),
      };
    }),
  };
}
