import { z } from 'zod';
import { apiRequest, text } from '../http/schemas';

const loginId = text({ min: 1, max: 256 }).refine(
  (value) => value.trim() === value && !/[\s/\\]/.test(value),
  {
    message: 'LoginId must not contain spaces or slashes',
  },
);
const password = text({ min: 8, max: 1024 });
const name = text({ min: 1, max: 256 });

export const tenantCreateRequest = z.object({
  ...apiRequest,
  TenantName: text({ min: 1, max: 256 }),
  AdminLoginId: loginId,
  AdminPassword: password.optional(),
});

export const userCreateRequest = z.object({
  ...apiRequest,
  LoginId: loginId,
  Name: name,
  Password: password.optional(),
  TenantManager: z.boolean().optional(),
  Disabled: z.boolean().optional(),
});

export const userUpdateRequest = z.object({
  ...apiRequest,
  LoginId: loginId.optional(),
  Name: name.optional(),
  Password: password.optional(),
  TenantManager: z.boolean().optional(),
  Disabled: z.boolean().optional(),
});

/** `"User,<id>"`: the reference's principal form; groups hold users. */
const member = z.string().regex(/^User,\d{1,15}$/, { message: 'a member is "User,<id>"' });

export const groupCreateRequest = z.object({
  ...apiRequest,
  GroupName: text({ min: 1, max: 256 }),
  Members: z.array(member).max(90).optional(),
});

export const groupUpdateRequest = z.object({
  ...apiRequest,
  GroupName: text({ min: 1, max: 256 }).optional(),
  Members: z.array(member).max(90).optional(),
});

export const emptyRequest = z.object({ ...apiRequest });

export const loginRequest = z.object({ LoginId: text({ min: 1 }), Password: text({ min: 1 }) });

export const userSchema = z
  .object({
    UserId: z.number().int(),
    TenantId: z.number().int(),
    LoginId: z.string(),
    Name: z.string(),
    TenantManager: z.boolean(),
    Disabled: z.boolean(),
    HasApiKey: z.boolean(),
    Groups: z.array(z.string()),
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
  })
  .meta({ id: 'User' });

export const groupSchema = z
  .object({
    GroupId: z.number().int(),
    TenantId: z.number().int(),
    GroupName: z.string(),
    Members: z.array(z.string()),
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
  })
  .meta({ id: 'Group' });
