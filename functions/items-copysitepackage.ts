import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { copySitePackage } from '../lib/packages/copy';
import { itemsCopysitepackage } from '../lib/routes/transfers';

// The reference answers the copies as JSON text in Response.Data.
export const handler = endpoint(itemsCopysitepackage, async ({ input, principal, pathId }) =>
  responseResult({ Data: JSON.stringify(await copySitePackage(principal, pathId, input)) }),
);
