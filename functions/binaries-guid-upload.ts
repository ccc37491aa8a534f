import { uploadEndpoint } from '../lib/http/upload-endpoint';
import { uploadToGuid } from '../lib/items/file-access';
import { queryBool } from '../lib/query-strings';
import { binariesGuidUpload } from '../lib/routes/files';

export const handler = uploadEndpoint(binariesGuidUpload, ({ principal, event, form }) =>
  uploadToGuid(
    principal,
    (event.pathParameters?.guid ?? '').toUpperCase(),
    queryBool(event.rawQueryString, 'overwrite'),
    form,
  ),
);
