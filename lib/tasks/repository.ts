import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { tableName } from '../storage/tables';
import type { Task } from './model';

/**
 * The Tasks table: a row per task (`TASK#<id>` / `TASK`) and, while a task is queued or running, a row for
 * its scope (`T<tenant>#SCOPE#<kind>#<scopeId>` / `SCOPE`) naming it, so that a second request for the same
 * scope finds the same task. Every change of a task row is a stream event for the worker.
 */

const table = () => tableName('tasks');
const taskKey = (taskId: string) => ({ pk: `TASK#${taskId}`, sk: 'TASK' });
const scopeKey = (task: Pick<Task, 'tenantId' | 'kind' | 'scopeId'>) => ({
  pk: `T${task.tenantId}#SCOPE#${task.kind}#${task.scopeId}`,
  sk: 'SCOPE',
});

export const TASK_SORT_KEY = 'TASK';

/** A task as queued: nothing done yet. */
function newTask(
  scope: Pick<Task, 'tenantId' | 'kind' | 'scopeId' | 'userId' | 'params'>,
  createdAt: number,
): Task {
  return {
    ...scope,
    taskId: randomUUID(),
    status: 'Queued',
    total: 0,
    done: 0,
    step: 0,
    attempts: 0,
    createdAt,
  };
}

/** Queues a task for the scope, or finds the one already queued or running there. */
export async function queueTask(
  scope: Pick<Task, 'tenantId' | 'kind' | 'scopeId' | 'userId' | 'params'>,
  createdAt: number,
): Promise<{ task: Task; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const task = newTask(scope, createdAt);
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table(),
                Item: { ...scopeKey(task), TaskId: task.taskId },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: table(),
                Item: toItem(task),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return { task, created: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const pending = await dynamo().send(
      new GetCommand({ TableName: table(), Key: scopeKey(scope), ConsistentRead: true }),
    );
    const existing = pending.Item && (await getTask(String(pending.Item.TaskId)));
    if (existing) return { task: existing, created: false };
    // The scope's task finished between the two reads: try again.
  }
  throw new Error(`no task could be queued for ${JSON.stringify(scope)}`);
}

export async function getTask(taskId: string): Promise<Task | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: taskKey(taskId), ConsistentRead: true }),
  );
  return result.Item ? toTask(result.Item) : undefined;
}

/**
 * Records the task's next state if nobody recorded a step since `before` (false otherwise). A state that
 * is no longer pending releases the scope in the same transaction, so that the scope can be started again.
 */
export async function recordStep(before: Task, after: Task): Promise<boolean> {
  const finished = after.status === 'Completed' || after.status === 'Failed';
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: toItem({ ...after, step: before.step + 1 }),
              ConditionExpression: 'Step = :step',
              ExpressionAttributeValues: { ':step': before.step },
            },
          },
          ...(finished
            ? [
                {
                  Delete: {
                    TableName: table(),
                    Key: scopeKey(before),
                    ConditionExpression: 'attribute_not_exists(pk) OR TaskId = :task',
                    ExpressionAttributeValues: { ':task': before.taskId },
                  },
                },
              ]
            : []),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A task row as the stream shows it, or undefined for the scope rows. */
export function taskOfItem(item: Record<string, unknown> | undefined): Task | undefined {
  return item?.sk === TASK_SORT_KEY ? toTask(item) : undefined;
}

/** Queues a task of its own for one request (lib/tasks/model.ts `perRequest`): no scope row is kept. */
export async function queueOwnTask(
  scope: Pick<Task, 'tenantId' | 'kind' | 'scopeId' | 'userId' | 'params'>,
  createdAt: number,
): Promise<Task> {
  const task = newTask(scope, createdAt);
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: toItem(task),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return task;
}

/** Touches the task row (for a test or an operator): a stream event that makes the worker look again. */
export async function nudgeTask(taskId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: taskKey(taskId),
      UpdateExpression: 'SET Nudged = :now',
      ExpressionAttributeValues: { ':now': Date.now() },
    }),
  );
}

function toItem(task: Task): Record<string, unknown> {
  return {
    ...taskKey(task.taskId),
    TaskId: task.taskId,
    TenantId: task.tenantId,
    Kind: task.kind,
    ScopeId: task.scopeId,
    UserId: task.userId,
    Params: task.params === undefined ? undefined : JSON.stringify(task.params),
    Outcome: task.outcome === undefined ? undefined : JSON.stringify(task.outcome),
    Status: task.status,
    Total: task.total,
    Done: task.done,
    Cursor: task.cursor === undefined ? undefined : JSON.stringify(task.cursor),
    Step: task.step,
    Attempts: task.attempts,
    Error: task.error,
    CreatedAt: task.createdAt,
    CompletedAt: task.completedAt,
  };
}

function toTask(item: Record<string, unknown>): Task {
  return {
    taskId: String(item.TaskId),
    tenantId: Number(item.TenantId),
    kind: String(item.Kind),
    scopeId: Number(item.ScopeId),
    userId: typeof item.UserId === 'number' ? item.UserId : undefined,
    params: typeof item.Params === 'string' ? JSON.parse(item.Params) : undefined,
    outcome: typeof item.Outcome === 'string' ? JSON.parse(item.Outcome) : undefined,
    status: item.Status as Task['status'],
    total: Number(item.Total ?? 0),
    done: Number(item.Done ?? 0),
    cursor: typeof item.Cursor === 'string' ? JSON.parse(item.Cursor) : undefined,
    step: Number(item.Step ?? 0),
    attempts: Number(item.Attempts ?? 0),
    error: typeof item.Error === 'string' ? item.Error : undefined,
    createdAt: Number(item.CreatedAt),
    completedAt: typeof item.CompletedAt === 'number' ? item.CompletedAt : undefined,
  };
}
