import { NotFoundError } from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { backgroundtasksRebuildsearchindexes } from '../lib/routes/search';
import { requestRebuild } from '../lib/search/background';

export const handler = endpoint(backgroundtasksRebuildsearchindexes, async ({ principal, pathId, event }) => {
  const raw = event.pathParameters?.id;
  if (raw !== undefined && !(pathId > 0)) throw new NotFoundError(`site id ${raw}`);
  const { outcome, taskId } = await requestRebuild(principal, pathId);
  return apiResult(outcome, { TaskId: taskId });
});
