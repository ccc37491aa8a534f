import { endpoint } from '../lib/http/api';
import { replayDeliveries } from '../lib/notifications/deliveries';
import { notificationsReplay } from '../lib/routes/notifications';

export const handler = endpoint(notificationsReplay, async ({ input, principal, pathId }) => {
  const replayed = await replayDeliveries(principal, pathId, input);
  return {
    body: {
      StatusCode: 200,
      Response: { Replayed: replayed },
      Message: `${replayed} ${replayed === 1 ? 'delivery has' : 'deliveries have'} been queued again.`,
    },
  };
});
