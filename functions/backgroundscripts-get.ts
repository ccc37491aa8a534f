import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { backgroundScriptsGet } from '../lib/routes/background-scripts';
import { readBackgroundScripts } from '../lib/scripts/background/manage';

export const handler = endpoint(backgroundScriptsGet, async ({ principal }) => {
  const { response } = await readBackgroundScripts(principal);
  return responseResult(response);
});
