import type { DynamoDBStreamEvent } from 'aws-lambda';
import { settings } from '../lib/config/settings';
import { logger } from '../lib/log';
import { indexChanges, searchChangesOf } from '../lib/search/live-updates';

/** The Items table's stream → the search index (lib/search/live-updates.ts), unless Search.CreateIndexes is off. */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  if (!settings().Search.CreateIndexes) return;
  for (const [tenantId, changes] of searchChangesOf(event.Records)) {
    const { written } = await indexChanges(tenantId, changes);
    logger.info('search index updated', { tenantId, written, renamedSites: changes.renamedSites.size });
  }
}
