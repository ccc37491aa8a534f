import type { DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/log';
import { pendingTaskIds, runStep } from '../lib/tasks/worker';

/** The Tasks table's stream → one step of each pending task it shows (lib/tasks/worker.ts). */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  for (const taskId of pendingTaskIds(event.Records)) {
    const step = await runStep(taskId);
    if (step) logger.info('task step', { taskId, status: step.status, done: step.done, total: step.total });
  }
}
