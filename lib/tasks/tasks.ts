import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { NotFoundError } from '../errors';
import { formatLocal } from '../zoned-time';
import type { Task } from './model';
import { getTask, nudgeTask, queueTask } from './repository';

/**
 * Starting and reading background tasks. Starting one only records it (the worker, fed by the Tasks
 * table's stream, does the work); a scope that already has one pending gets that one, touched so that a
 * task whose worker gave up (a crash after the stream's retries) moves on from its last recorded page.
 */
export async function startTask(principal: Principal, kind: string, scopeId: number): Promise<Task> {
  const { task, created } = await queueTask({ tenantId: principal.tenantId, kind, scopeId }, now());
  if (!created) await nudgeTask(task.taskId);
  return task;
}

/** A task of the caller's tenant; any other id is not found. */
export async function taskOfTenant(principal: Principal, taskId: string): Promise<Task> {
  const task = await getTask(taskId);
  if (!task || task.tenantId !== principal.tenantId) {
    throw new NotFoundError(`no task ${taskId} in tenant ${principal.tenantId}`);
  }
  return task;
}

/**
 * `Tasks/{taskId}/Get`'s Response, its times in the caller's `zone` as every date the API answers
 * (CONTRACT 5.1); Message holds why a failed task failed.
 */
export function taskView(task: Task, zone: string): Record<string, unknown> {
  const local = (time: number | undefined) => (time === undefined ? undefined : formatLocal(time, zone));
  return {
    TaskId: task.taskId,
    Kind: task.kind,
    Status: task.status,
    Total: task.total,
    Done: task.done,
    CreatedTime: local(task.createdAt),
    CompletedTime: local(task.completedAt),
    Message: task.status === 'Failed' ? task.error : undefined,
  };
}
