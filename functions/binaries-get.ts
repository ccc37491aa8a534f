import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { fileAsJson } from '../lib/items/file-access';
import { binariesGet } from '../lib/routes/files';

export const handler = endpoint(binariesGet, async ({ principal, event }) => {
  const { response, ...outcome } = await fileAsJson(principal, event.pathParameters?.guid ?? '');
  return apiResult(outcome, { Response: response });
});
