import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import { csvRows, importEncoding } from '../csv/csv';
import { ForbiddenError, NotFoundError } from '../errors';
import { objectStream } from '../files/object-store';
import { getBinary } from '../files/repository';
import type { Outcome } from '../results';
import { siteInTenant } from '../sites/permissions';
import type { Task, TaskKind } from '../tasks/model';
import { startOwnTask, taskPrincipal } from '../tasks/tasks';
import { rowErrorText } from './errors';
import { dropMarkers, writePage } from './page-writer';
import { type ImportParameters, planImport, requireImporter } from './session';
import { dropStaged, stagedPage, stagePage } from './staging';

/**
 * The `Import` background task (CONTRACT 12): a CSV uploaded in chunks through /api/binaries/upload,
 * imported as its uploader. The start streams the file from the bucket (never whole in memory), checks
 * every row and plans the writes into staged pages of PAGE_ROWS rows (new records' ids reserved there, so
 * a page always writes the same records); any invalid row fails the task with the first errors and
 * nothing written. Each page step then writes one staged page (lib/imports/page-writer.ts: a page done
 * again writes nothing twice); a last step removes the staged pages. Total is the file's rows, Done the
 * rows written so far; Added and Updated count as the pages go.
 */

export interface ImportTaskParameters extends ImportParameters {
  readonly Guid: string;
}

interface Cursor {
  readonly page: number;
  readonly pages: number;
}

export const importTask: TaskKind = {
  perRequest: true,

  async start(task) {
    const principal = await actingUser(task);
    const params = task.params as unknown as ImportTaskParameters;
    const site = await siteInTenant(principal, task.scopeId);
    await requireImporter(principal, site, params);
    const file = await uploadedCsv(principal, params.Guid);
    let pages = 0;
    try {
      const cells = csvRows(await objectStream(file), { encoding: importEncoding(params.Encoding) });
      const result = await planImport(principal, site, params, cells, async (page, index) => {
        await stagePage(task.taskId, index, page);
        pages = index + 1;
      });
      const [first] = result.errors;
      if (first) {
        await dropStaged(task.taskId, pages);
        const outcome = { Added: 0, Updated: 0, Errors: result.errors };
        return { total: result.rows, cursor: undefined, outcome, failed: rowErrorText(first) };
      }
      const cursor: Cursor = { page: 0, pages };
      return { total: result.rows, cursor, outcome: { Added: 0, Updated: 0 } };
    } catch (error) {
      await dropStaged(task.taskId, pages);
      throw error;
    }
  },

  async page(task, cursor) {
    const { page, pages } = cursor as Cursor;
    if (page >= pages) {
      await dropStaged(task.taskId, pages);
      await dropMarkers(task.taskId, pages);
      return { done: 0 };
    }
    const principal = await actingUser(task);
    const site = await siteInTenant(principal, task.scopeId);
    const staged = await stagedPage(task.taskId, page);
    await writePage(site, staged.writes, { taskId: task.taskId, page });
    const outcome = {
      ...task.outcome,
      Added: Number(task.outcome?.Added ?? 0) + staged.added,
      Updated: Number(task.outcome?.Updated ?? 0) + staged.updated,
    };
    return { done: staged.rows, cursor: { page: page + 1, pages } satisfies Cursor, outcome };
  },
};

/** The user who started the task; a user who can no longer act ends it. */
async function actingUser(task: Task): Promise<Principal> {
  const principal = await taskPrincipal(task);
  if (!principal) throw new NotFoundError(`the user who started task ${task.taskId} is gone`);
  return principal;
}

/** The object key of a CSV the caller uploaded (any other GUID is not found). */
export async function uploadedCsv(principal: Principal, guid: string): Promise<string> {
  const upper = guid.toUpperCase();
  const binary = /^[0-9A-F]{32}$/.test(upper) ? await getBinary(principal.tenantId, upper) : undefined;
  if (!binary || binary.attached || binary.creator !== principal.userId)
    throw new NotFoundError(`no upload ${guid} of user ${principal.userId}`);
  return binary.objectKey;
}

export const IMPORT_STARTED = 'Import started.';

/**
 * `POST /api/BackgroundTasks/{siteId}/Import`: the caller's rights and file are checked now, as the sync
 * import checks them, and again when the task starts; the answer names the task.
 */
export async function requestImport(
  principal: Principal,
  siteId: number,
  params: ImportTaskParameters,
): Promise<{ outcome: Outcome; taskId: string }> {
  if (!settings().BackgroundTask.Enabled) throw new ForbiddenError('BackgroundTask.Enabled is false');
  const site = await siteInTenant(principal, siteId);
  await requireImporter(principal, site, params);
  await uploadedCsv(principal, params.Guid);
  const { Guid, Encoding, Key, UpdatableImport } = params;
  const task = await startOwnTask(principal, 'Import', siteId, { Guid, Encoding, Key, UpdatableImport });
  return { outcome: { id: siteId, message: IMPORT_STARTED }, taskId: task.taskId };
}
