import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { now } from '../clock';
import { ApiError } from '../errors';
import { logger } from '../log';
import { messages } from '../messages';
import { taskKinds } from './kinds';
import type { Task } from './model';
import { getTask, recordStep, taskOfItem } from './repository';

/**
 * The worker: each change of a pending task's row is one step. A queued task is sized and started; a
 * running one does one page from its recorded cursor and records the next cursor, which changes the row
 * again and so brings the next step. No invocation does more than one page, so no size of task meets a
 * Lambda timeout; a crash or a redeploy mid-page leaves the recorded cursor, and the redelivered event (or
 * a new request for the same scope, which touches the row) does that page again: pages are idempotent,
 * and the step counter makes sure each is recorded once. A page that throws is tried again up to
 * MAX_ATTEMPTS times, then the task is Failed, and its scope may be started anew. The reason goes to the
 * log; the task's Message is a public one (an ApiError's message, else the generic internal error).
 */

const MAX_ATTEMPTS = 3;

/** The tasks a batch of the Tasks table's stream asks to move on, each once. */
export function pendingTaskIds(records: readonly DynamoDBRecord[]): string[] {
  const ids = new Set<string>();
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const task = taskOfItem(image && unmarshall(image as Record<string, SdkAttributeValue>));
    if (task && (task.status === 'Queued' || task.status === 'Running')) ids.add(task.taskId);
  }
  return [...ids];
}

/** Does the next step of the task as it is stored now; what was recorded, or undefined if nothing. */
export async function runStep(taskId: string): Promise<Task | undefined> {
  const task = await getTask(taskId);
  if (!task || (task.status !== 'Queued' && task.status !== 'Running')) return undefined;
  const kind = taskKinds[task.kind];
  let next: Task;
  try {
    if (!kind) throw new Error(`no task kind ${task.kind}`);
    if (task.status === 'Queued') {
      const { total, cursor, outcome, failed } = await kind.start(task);
      next = { ...task, status: 'Running', total, cursor, attempts: 0, outcome: outcome ?? task.outcome };
      if (failed !== undefined) next = { ...next, status: 'Failed', error: failed, completedAt: now() };
    } else {
      const page = await kind.page(task, task.cursor);
      const done = task.done + page.done;
      const outcome = page.outcome ?? task.outcome;
      next =
        page.failed !== undefined
          ? { ...task, done, outcome, status: 'Failed', error: page.failed, completedAt: now() }
          : page.cursor === undefined
            ? {
                ...task,
                outcome,
                status: 'Completed',
                done,
                total: Math.max(task.total, done),
                cursor: undefined,
                attempts: 0,
                completedAt: now(),
              }
            : { ...task, done, outcome, cursor: page.cursor, attempts: 0 };
    }
  } catch (error) {
    // The task's answer is public: storage's own text (a table, a limit) goes to the log only.
    logger.error('background task step failed', {
      taskId,
      kind: task.kind,
      attempt: task.attempts + 1,
      error,
    });
    const reason = error instanceof ApiError ? error.message : messages.internalServerError;
    next =
      task.attempts + 1 >= MAX_ATTEMPTS
        ? { ...task, status: 'Failed', error: reason, completedAt: now() }
        : { ...task, attempts: task.attempts + 1, error: reason };
  }
  return (await recordStep(task, next)) ? { ...next, step: task.step + 1 } : undefined;
}
