import type { DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/log';
import { siteChangesOf, updateTenantIndex } from '../lib/sites/index-updater';

/** The Items table's stream → each changed tenant's site-name index (lib/sites/index-updater.ts). */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  for (const [tenantId, changes] of siteChangesOf(event.Records)) {
    const version = await updateTenantIndex(tenantId, changes);
    logger.info('site-name index updated', { tenantId, changes: changes.length, version });
  }
}
