import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { backgroundScriptsRun } from '../lib/routes/background-scripts';
import { runBackgroundScriptNow } from '../lib/scripts/background/manage';

export const handler = endpoint(backgroundScriptsRun, async ({ input, principal }) => {
  const id = await runBackgroundScriptNow(principal, input);
  return apiResult({ id, message: 'The background script will run within a minute.' });
});
