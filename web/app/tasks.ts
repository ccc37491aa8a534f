import { ApiFailure, post } from './api';

/**
 * A table's export and import as background tasks (CONTRACT 12): the request records a task, the page polls
 * `Tasks/{taskId}/Get` until it ends. The file of an export is fetched through `/binaries/{guid}/download`;
 * the file of an import is uploaded first (upload.ts) and named by its GUID.
 */

export type Encoding = 'Shift-JIS' | 'UTF-8';

export interface RowError {
  readonly Row: number;
  readonly Column?: string;
  readonly Message: string;
}

export interface Task {
  readonly TaskId: string;
  readonly Status: 'Queued' | 'Running' | 'Completed' | 'Failed';
  readonly Total: number;
  readonly Done: number;
  readonly Message?: string;
  readonly Added?: number;
  readonly Updated?: number;
  readonly Errors?: readonly RowError[];
  readonly Guid?: string;
  readonly FileName?: string;
}

export interface ImportOptions {
  readonly guid: string;
  readonly encoding: Encoding;
  /** The ColumnName that finds the record a row updates; only with `updatable`. */
  readonly key?: string;
  readonly updatable: boolean;
}

const POLL_MS = 500;
/** Polls in a row that may fail to reach the server (a dropped connection) before the page gives up. */
const POLL_RETRIES = 5;

export async function startExport(siteId: number, view: object, encoding: Encoding): Promise<string> {
  const answer = await post<{ TaskId: string }>(`api/BackgroundTasks/${siteId}/Export`, {
    View: view,
    Encoding: encoding,
  });
  return answer.TaskId;
}

export async function startImport(siteId: number, options: ImportOptions): Promise<string> {
  const answer = await post<{ TaskId: string }>(`api/BackgroundTasks/${siteId}/Import`, {
    Guid: options.guid,
    Encoding: options.encoding,
    ...(options.updatable && { UpdatableImport: true, Key: options.key }),
  });
  return answer.TaskId;
}

/**
 * Polls the task until it is Completed or Failed, reporting each state; resolves the last one. `isLive`
 * false (the dialog closed) stops the polling; the task itself goes on on the server.
 */
export async function followTask(
  taskId: string,
  onState: (task: Task) => void,
  isLive: () => boolean,
): Promise<Task | undefined> {
  for (let failures = 0; ; ) {
    let task: Task;
    try {
      const path = `api/BackgroundTasks/Tasks/${encodeURIComponent(taskId)}/Get`;
      task = (await post<{ Response: Task }>(path)).Response;
      failures = 0;
    } catch (error) {
      const unreachable = error instanceof ApiFailure && error.statusCode === 0;
      if (!unreachable || ++failures > POLL_RETRIES || !isLive()) throw error;
      await sleep(POLL_MS * 2 ** failures);
      continue;
    }
    if (!isLive()) return undefined;
    onState(task);
    if (task.Status === 'Completed' || task.Status === 'Failed') return task;
    await sleep(POLL_MS);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The encoding a file is written or read in by default: Excel's Shift-JIS for Japanese, else UTF-8. */
export function defaultEncoding(language: string): Encoding {
  return language === 'ja' ? 'Shift-JIS' : 'UTF-8';
}
