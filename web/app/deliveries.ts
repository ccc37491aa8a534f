import { type Answer, post } from './api';

/**
 * A site's deliveries, its signing secret and the replay of its failed deliveries, through
 * `api/items/{siteId}/notifications/*` (CONTRACT 14), for its site managers.
 */

export type DeliveryStatus = 'Pending' | 'Retrying' | 'Delivered' | 'Failed' | 'Refused';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'Pending',
  'Retrying',
  'Delivered',
  'Failed',
  'Refused',
];

export interface Delivery {
  readonly DeliveryId: string;
  readonly NotificationId?: number;
  readonly RecordId?: number;
  readonly Event: string;
  readonly Type: number | string;
  readonly Target: string;
  readonly Status: DeliveryStatus;
  readonly Attempts: number;
  readonly CreatedAt: string;
  readonly LastAttemptAt?: string;
  readonly NextAttemptAt?: string;
  readonly ResponseStatus?: number;
  readonly Reason?: string;
}

export interface DeliveryPage {
  readonly deliveries: readonly Delivery[];
  readonly next?: string;
}

/** One page (50, newest first) of the site's deliveries, of one status or all. */
export async function deliveries(
  siteId: number,
  status?: DeliveryStatus,
  next?: string,
): Promise<DeliveryPage> {
  const answer = await post<{ Response: { Deliveries: Delivery[]; Next?: string } }>(
    `api/items/${siteId}/notifications/deliveries`,
    { ...(status && { Status: status }), ...(next && { Next: next }) },
  );
  return { deliveries: answer.Response.Deliveries, next: answer.Response.Next };
}

export interface Secret {
  readonly Secret: string;
  readonly CreatedAt: string;
}

/** The site's signing secret (made on its first read), or a new one replacing it. */
export async function signingSecret(siteId: number, rotate = false): Promise<Secret> {
  const answer = await post<{ Response: Secret }>(`api/items/${siteId}/notifications/secret`, {
    ...(rotate && { Rotate: true }),
  });
  return answer.Response;
}

/** Sends the site's Failed deliveries again; the server's message says how many. */
export async function replayFailed(siteId: number): Promise<string> {
  const answer = await post<Answer & { Response: { Replayed: number } }>(
    `api/items/${siteId}/notifications/replay`,
  );
  return answer.Message ?? String(answer.Response.Replayed);
}
