import { exportTask } from '../exports/background';
import { importTask } from '../imports/task';
import { rebuildSearchIndexes } from '../search/rebuild';
import type { TaskKind } from './model';
import { rebuildSiteNameIndex } from './site-name-index';

/**
 * Every kind of background task, by the name stored in its row. Another kind is one more entry here: a
 * TaskKind (lib/tasks/model.ts) with `start` (its total and first cursor) and `page` (one page of work from
 * a cursor, idempotent), queued with `startTask(principal, '<Kind>', scopeId)` (lib/tasks/tasks.ts).
 */
export const taskKinds: Readonly<Record<string, TaskKind>> = {
  Import: importTask,
  RebuildSearchIndexes: rebuildSearchIndexes,
  RebuildSiteNameIndex: rebuildSiteNameIndex,
  Export: exportTask,
};
