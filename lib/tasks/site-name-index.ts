import { rebuildTenantIndex } from '../sites/index-updater';
import type { TaskKind } from './model';

/**
 * The RebuildSiteNameIndex task: the tenant's site-name index (GetClosestSiteId, integrated sites) built
 * afresh from its sites, whatever the stored one holds (lib/sites/index-updater.ts). One page: the index
 * is one document per tenant, written whole under its version pointer, so doing it twice is harmless.
 * The scope is always the tenant (0).
 */
export const rebuildSiteNameIndex: TaskKind = {
  async start() {
    return { total: 1, cursor: 0 };
  },

  async page(task) {
    await rebuildTenantIndex(task.tenantId);
    return { done: 1 };
  },
};
