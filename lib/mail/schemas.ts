import * as z from 'zod';
import { MAX_LENGTH } from '../bounds';
import { apiRequest, integer, text } from '../schema';

/** The most attachments of one mail, and their bytes together (a request carries at most 6 MB of JSON). */
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024;

/** A list of addresses as the reference takes it: entries split on `,`, `;` or newlines; tokens allowed. */
const addressList = text({ max: 10_000 }).meta({
  description:
    'Addresses separated by , ; or newlines: "Name <a@example.com>", a@example.com, [User1], [Group2], [Dept3]',
});

export const outgoingMailRequest = z
  .object({
    ...apiRequest,
    From: text({ max: 1_000 }).optional(),
    To: addressList.optional(),
    Cc: addressList.optional(),
    Bcc: addressList.optional(),
    Title: text({ max: MAX_LENGTH.title }).optional(),
    Body: text({ max: MAX_LENGTH.text }).optional(),
    Attachments: z
      .array(
        z.object({
          Name: text({ min: 1, max: MAX_LENGTH.name }),
          // Base64 of at most MAX_ATTACHMENT_BYTES (4/3 of it, and some room for line breaks).
          Base64: text({ max: 6 * 1024 * 1024 }),
          ContentType: text({ max: MAX_LENGTH.name }).optional(),
        }),
      )
      .max(MAX_ATTACHMENTS)
      .optional(),
  })
  .meta({ id: 'OutgoingMailRequest' });

export const mailboxRequest = z
  .object({ ...apiRequest, Offset: integer({ min: 0, max: 1_000_000 }).optional() })
  .meta({ id: 'MailboxRequest' });

const mailboxMail = z.object({
  Id: z.string(),
  Date: z.string(),
  From: z.string(),
  To: z.array(z.string()),
  Cc: z.array(z.string()),
  Subject: z.string(),
  Text: z.string(),
});

export const mailboxResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({ Mails: z.array(mailboxMail), TotalCount: z.number().int() }),
  })
  .meta({ id: 'Mailbox' });
