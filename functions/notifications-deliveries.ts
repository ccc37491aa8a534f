import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { listDeliveries } from '../lib/notifications/deliveries';
import { notificationsDeliveries } from '../lib/routes/notifications';

export const handler = endpoint(notificationsDeliveries, async ({ input, principal, pathId }) => {
  const { response } = await listDeliveries(principal, pathId, input);
  return responseResult(response);
});
