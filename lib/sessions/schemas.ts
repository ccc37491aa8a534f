import * as z from 'zod';
import { apiRequest, text } from '../schema';

/** Keys are stored as `User_<SessionKey>`; the reference's column holds 256 characters. */
export const MAX_KEY_LENGTH = 251;
/** A DynamoDB item holds 400 KB; the value's share of it. */
export const MAX_VALUE_BYTES = 350 * 1024;

const sessionKey = text({ min: 1, max: MAX_KEY_LENGTH });
const savePerUser = z.boolean().optional();

export const sessionKeyRequest = z.object({
  ...apiRequest,
  SessionKey: sessionKey,
  SavePerUser: savePerUser,
});

export const sessionSetRequest = z.object({
  ...apiRequest,
  SessionKey: sessionKey,
  SessionValue: text({ min: 1 }).refine((value) => Buffer.byteLength(value) <= MAX_VALUE_BYTES, {
    message: `SessionValue is over ${MAX_VALUE_BYTES} bytes`,
  }),
  SavePerUser: savePerUser,
});

export const sessionResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({ UserId: z.number().int(), Key: z.string(), Value: z.string().optional() }),
});
