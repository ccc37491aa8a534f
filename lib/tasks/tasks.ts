import { principalOf } from '../accounts/authentication';
import type { Principal } from '../accounts/principal';
import { getTenant, getUser } from '../accounts/repository';
import { now } from '../clock';
import { NotFoundError } from '../errors';
import { formatLocal } from '../zoned-time';
import type { Task } from './model';
import { getTask, nudgeTask, queueOwnTask, queueTask } from './repository';

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

/**
 * Starts a task of its own for this request (a kind with `perRequest`: an import of one file, an export of
 * one view), acting as the caller: the worker checks the caller's permissions as the request would, and
 * the task answers only to them and their tenant's managers.
 */
export async function startOwnTask(
  principal: Principal,
  kind: string,
  scopeId: number,
  params: Readonly<Record<string, unknown>>,
): Promise<Task> {
  return queueOwnTask(
    { tenantId: principal.tenantId, kind, scopeId, userId: principal.userId, params },
    now(),
  );
}

/**
 * A task of the caller's tenant; any other id is not found, and so is a task started by another user
 * (its errors quote the rows of their file) unless the caller manages the tenant.
 */
export async function taskOfTenant(principal: Principal, taskId: string): Promise<Task> {
  const task = await getTask(taskId);
  const visible =
    task?.tenantId === principal.tenantId &&
    (task.userId === undefined ||
      task.userId === principal.userId ||
      principal.tenantManager ||
      principal.privileged);
  if (!task || !visible) throw new NotFoundError(`no task ${taskId} in tenant ${principal.tenantId}`);
  return task;
}

/**
 * `Tasks/{taskId}/Get`'s Response, its times in the caller's `zone` as every date the API answers
 * (CONTRACT 5.1); Message holds why a failed task failed; the kind's outcome (an import's Added, Updated
 * and Errors, an export's Guid) follows (CONTRACT 12).
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
    ...task.outcome,
  };
}

/**
 * The user who started a task of its own (startOwnTask), as their requests see them (their zone, else
 * their tenant's); undefined when they can no longer act (gone, disabled, moved to another tenant).
 */
export async function taskPrincipal(task: Task): Promise<Principal | undefined> {
  const user = task.userId === undefined ? undefined : await getUser(task.userId);
  if (!user || user.disabled || user.tenantId !== task.tenantId) return undefined;
  const zone = user.timeZone ?? (await getTenant(user.tenantId))?.timeZone;
  return { ...principalOf(user, 'apiKey'), ...(zone && { timeZone: zone }) };
}
