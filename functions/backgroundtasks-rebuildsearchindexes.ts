import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';
import { NotFoundError } from '../lib/http/errors';
import { requestRebuild } from '../lib/search/search-api';

export const handler = endpoint(
  { schema: emptyRequest, status: 'processed' },
  ({ principal, pathId, event }) => {
    const raw = event.pathParameters?.id;
    if (raw !== undefined && !(pathId > 0)) throw new NotFoundError(`site id ${raw}`);
    return requestRebuild(principal, pathId);
  },
);
