import * as z from 'zod';
import { apiRequest, boolean, text } from '../schema';

/** The bodies and answers of the site's deliveries routes (lib/routes/notifications.ts). */

const statuses = ['Pending', 'Retrying', 'Delivered', 'Failed', 'Refused'] as const;
const deliveryIdText = text({ min: 1, max: 64 });

export const deliveriesRequest = z.object({
  ...apiRequest,
  Status: z.enum(statuses).optional().meta({ description: 'Only the deliveries in this status' }),
  Next: text({ max: 200 }).optional().meta({ description: "The previous page's Next" }),
});
export type DeliveriesInput = z.infer<typeof deliveriesRequest>;

export const deliveriesResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({
      Deliveries: z.array(
        z.object({
          DeliveryId: z.string(),
          NotificationId: z.number().int().optional(),
          RecordId: z.number().int().optional(),
          Event: z.enum(['Created', 'Updated', 'Deleted', 'Script']),
          Type: z.number().int().meta({ description: "The notification's Type (1 Mail … 9 HttpClient)" }),
          Target: z.string().meta({ description: "The URL without its query string, or the mail's To" }),
          Status: z.enum(statuses),
          Attempts: z.number().int(),
          CreatedAt: z.string(),
          LastAttemptAt: z.string().optional(),
          NextAttemptAt: z.string().optional(),
          ResponseStatus: z.number().int().optional(),
          Reason: z.string().optional(),
        }),
      ),
      Next: z.string().optional().meta({ description: 'Absent on the last page' }),
    }),
  })
  .meta({ id: 'Deliveries' });

export const secretRequest = z.object({
  ...apiRequest,
  Rotate: boolean()
    .optional()
    .meta({ description: 'Make a new secret; the old one still signs for 24 hours' }),
});
export type SecretInput = z.infer<typeof secretRequest>;

export const secretResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({ Secret: z.string(), CreatedAt: z.string() }),
  })
  .meta({ id: 'DeliverySecret' });

export const replayRequest = z.object({
  ...apiRequest,
  DeliveryIds: z
    .array(deliveryIdText)
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: 'Failed or Refused deliveries to send again; none: every Failed one of the site' }),
});
export type ReplayInput = z.infer<typeof replayRequest>;

export const replayResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({ Replayed: z.number().int() }),
    Message: z.string(),
  })
  .meta({ id: 'DeliveriesReplayed' });
