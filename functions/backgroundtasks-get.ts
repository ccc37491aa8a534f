import { callerZone } from '../lib/accounts/caller-zone';
import { NotFoundError } from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { backgroundtasksGet } from '../lib/routes/search';
import { taskOfTenant, taskView } from '../lib/tasks/tasks';

const TASK_ID = /^[0-9a-f-]{36}$/;

export const handler = endpoint(backgroundtasksGet, async ({ principal, event }) => {
  const taskId = event.pathParameters?.taskId ?? '';
  if (!TASK_ID.test(taskId)) throw new NotFoundError(`task id ${taskId}`);
  return responseResult(taskView(await taskOfTenant(principal, taskId), callerZone(principal)));
});
