import { emptyRequest } from '../lib/accounts/schemas';
import { fileAsJson } from '../lib/binaries/files';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: emptyRequest }, ({ principal, event }) =>
  fileAsJson(principal, event.pathParameters?.guid ?? ''),
);
