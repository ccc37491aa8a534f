/** A background task as stored (lib/tasks/repository.ts) and shown by `BackgroundTasks/Tasks/{id}/Get`. */

export const taskStatuses = ['Queued', 'Running', 'Completed', 'Failed'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

export interface Task {
  readonly taskId: string;
  readonly tenantId: number;
  /** A key of lib/tasks/kinds.ts's map: which handler does the work. */
  readonly kind: string;
  /** What the task covers, for its kind: a site id, or 0 for the whole tenant. One pending task per scope. */
  readonly scopeId: number;
  readonly status: TaskStatus;
  readonly total: number;
  readonly done: number;
  /** The kind's own position: where the next page starts. */
  readonly cursor?: unknown;
  /** Counts every recorded step; each write is conditional on it, so a step is recorded once. */
  readonly step: number;
  /** Failed attempts of the current page. */
  readonly attempts: number;
  readonly error?: string;
  readonly createdAt: number;
  readonly completedAt?: number;
}

/** One kind of background task: how it starts (its size and first position) and how it does one page. */
export interface TaskKind {
  start(task: Task): Promise<{ total: number; cursor: unknown }>;
  /** One page of work from `cursor`: how many units it covered and where the next page starts (none: done). */
  page(task: Task, cursor: unknown): Promise<{ done: number; cursor?: unknown }>;
}
