import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { backgroundScriptsUpdate } from '../lib/routes/background-scripts';
import { updateBackgroundScripts } from '../lib/scripts/background/manage';

export const handler = endpoint(backgroundScriptsUpdate, async ({ input, principal }) => {
  const id = await updateBackgroundScripts(principal, input);
  return apiResult({ id, message: 'The background scripts have been updated.' });
});
