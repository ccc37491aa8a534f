import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { deliverySecret } from '../lib/notifications/deliveries';
import { notificationsSecret } from '../lib/routes/notifications';

export const handler = endpoint(notificationsSecret, async ({ input, principal, pathId }) => {
  const { response } = await deliverySecret(principal, pathId, input);
  return responseResult(response);
});
