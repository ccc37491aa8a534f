import { uploadToGuid } from '../lib/binaries/files';
import { uploadEndpoint } from '../lib/binaries/upload-endpoint';
import { queryBool } from '../lib/http/query';

export const handler = uploadEndpoint(({ principal, event, form }) =>
  uploadToGuid(
    principal,
    (event.pathParameters?.guid ?? '').toUpperCase(),
    queryBool(event.rawQueryString, 'overwrite'),
    form,
  ),
);
