import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';
import { NotFoundError } from '../lib/http/errors';
import { responseResult } from '../lib/http/response';
import { taskOfTenant, taskView } from '../lib/tasks/tasks';

const TASK_ID = /^[0-9a-f-]{36}$/;

export const handler = endpoint(
  { schema: emptyRequest, status: 'processed' },
  async ({ principal, event }) => {
    const taskId = event.pathParameters?.taskId ?? '';
    if (!TASK_ID.test(taskId)) throw new NotFoundError(`task id ${taskId}`);
    return responseResult(taskView(await taskOfTenant(principal, taskId)));
  },
);
