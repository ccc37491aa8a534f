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
  /**
   * The user who started it, for a kind that acts as its caller (an import writes as them, an export
   * reads what they may read) and answers only to them and the tenant's managers.
   */
  readonly userId?: number;
  /** The kind's own inputs (an import's file and Key, an export's View), as the request gave them. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** What the kind reports so far (Added, Updated, Errors, Guid): shown beside the task's own fields. */
  readonly outcome?: Readonly<Record<string, unknown>>;
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

/**
 * What a step of a kind reports: `outcome` replaces the task's outcome when given; `failed` ends the task
 * Failed at once with that public message (a file with an invalid row: trying again cannot help).
 */
export interface StepReport {
  readonly outcome?: Readonly<Record<string, unknown>>;
  readonly failed?: string;
}

/** One kind of background task: how it starts (its size and first position) and how it does one page. */
export interface TaskKind {
  /**
   * Each request its own task (an import of a file, an export of a view), instead of one pending task per
   * scope that a second request for the same scope joins (a rebuild).
   */
  readonly perRequest?: boolean;
  start(task: Task): Promise<{ total: number; cursor: unknown } & StepReport>;
  /** One page of work from `cursor`: how many units it covered and where the next page starts (none: done). */
  page(task: Task, cursor: unknown): Promise<{ done: number; cursor?: unknown } & StepReport>;
}
