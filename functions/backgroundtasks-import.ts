import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { requestImport } from '../lib/imports/task';
import { backgroundtasksImport } from '../lib/routes/imports';

export const handler = endpoint(backgroundtasksImport, async ({ input, principal, pathId }) => {
  const { outcome, taskId } = await requestImport(principal, pathId, input);
  return apiResult(outcome, { TaskId: taskId });
});
