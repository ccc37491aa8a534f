import { uploadProgress } from '../lib/files/upload';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { binariesUploadStatus } from '../lib/routes/files';

export const handler = endpoint(binariesUploadStatus, async ({ principal, input }) => {
  const { received, total } = await uploadProgress(principal, input.id, input.FileName);
  return responseResult({ Received: received, Total: total });
});
