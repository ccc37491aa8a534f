import * as notifications from '../notifications/schemas';
import { itemsRead, type Route } from './route';

/** A site's notification deliveries, for its managers (CONTRACT 14): the list, the signing secret, replay. */

// The deliveries' table besides the site (items) and the caller's permissions (accounts).
const deliveriesRead = { ...itemsRead, deliveries: 'read' } as const;
const deliveriesWrite = { ...itemsRead, deliveries: 'write' } as const;

export const notificationsDeliveries = {
  method: 'POST',
  path: '/api/items/{id}/notifications/deliveries',
  handler: 'notifications-deliveries',
  tables: deliveriesRead,
  summary:
    "The deliveries of site {id}'s notifications, newest first, 50 a page, with their outcome (ManageSite)",
  request: notifications.deliveriesRequest,
  response: notifications.deliveriesResponse,
} as const satisfies Route;

export const notificationsSecret = {
  method: 'POST',
  path: '/api/items/{id}/notifications/secret',
  handler: 'notifications-secret',
  // Made on first read: a write.
  tables: deliveriesWrite,
  summary:
    "Site {id}'s secret that signs its HttpClient deliveries (X-Kiroku-Signature), made on first read; Rotate makes a new one (ManageSite)",
  request: notifications.secretRequest,
  response: notifications.secretResponse,
} as const satisfies Route;

export const notificationsReplay = {
  method: 'POST',
  path: '/api/items/{id}/notifications/replay',
  handler: 'notifications-replay',
  tables: deliveriesWrite,
  summary:
    "Send site {id}'s Failed deliveries again, or the Failed and Refused ones named, each with 24 hours of retries (ManageSite)",
  request: notifications.replayRequest,
  response: notifications.replayResponse,
} as const satisfies Route;
