import { requestExport } from '../lib/exports/background';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { backgroundtasksExport } from '../lib/routes/exports';

export const handler = endpoint(backgroundtasksExport, async ({ input, principal, pathId }) => {
  const { outcome, taskId } = await requestExport(principal, pathId, input);
  return apiResult(outcome, { TaskId: taskId });
});
