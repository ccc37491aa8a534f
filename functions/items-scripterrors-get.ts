import { callerZone } from '../lib/accounts/caller-zone';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { scriptErrorsGet } from '../lib/routes/background-scripts';
import { errorViews } from '../lib/scripts/background/manage';
import { siteScriptErrors } from '../lib/scripts/script-errors';

export const handler = endpoint(scriptErrorsGet, async ({ principal, pathId }) => {
  const errors = await siteScriptErrors(principal, pathId);
  return responseResult({ Errors: errorViews(errors, callerZone(principal)) });
});
