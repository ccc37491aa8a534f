import * as z from 'zod';
import { freeForm, id, MAX_LENGTH } from '../bounds';
import { apiRequest, integer, text } from '../schema';
import { ianaZone } from '../zoned-time';
import { isAddrSpec, MAX_MAIL_ADDRESS_LENGTH } from './mail-addresses';

const loginId = text({ min: 1, max: MAX_LENGTH.name }).refine(
  (value) => value.trim() === value && !/[\s/\\]/.test(value),
  {
    message: 'LoginId must not contain spaces or slashes',
  },
);
const password = text({ min: 8, max: MAX_LENGTH.password });
const name = text({ min: 1, max: MAX_LENGTH.name });
/** An IANA zone (`Asia/Tokyo`, any case), as the user's or tenant's TimeZone (CONTRACT 5.1). */
const timeZone = text({ min: 1, max: 64 })
  .refine((value) => ianaZone(value) !== undefined, {
    message: 'must be an IANA time zone such as Asia/Tokyo',
  })
  .meta({ description: 'IANA time zone of dates read and written through the API, such as Asia/Tokyo' });
/** The user's language (CONTRACT 11): labels of built-in columns, dates; API messages stay English. */
const language = z
  .enum(['ja', 'en'], { message: 'Language must be ja or en' })
  .meta({ description: 'ja or en: the language of built-in column labels and of the UI' });
/** The user's mail addresses (the reference's MailAddresses), bare addresses; an empty list removes them. */
const mailAddresses = z
  .array(
    text({ min: 1, max: MAX_MAIL_ADDRESS_LENGTH }).refine(isAddrSpec, {
      message: 'must be a mail address such as taro@example.com',
    }),
  )
  .max(10)
  .meta({ description: 'Mail addresses of the user: [UserN] tokens of mails and notifications reach them' });
/** A dept of the tenant; 0 takes the user out of their dept. */
const deptId = id();

export const tenantCreateRequest = z.object({
  ...apiRequest,
  TenantName: text({ min: 1, max: MAX_LENGTH.name }),
  AdminLoginId: loginId,
  AdminPassword: password.optional(),
  TimeZone: timeZone.optional(),
});

export const userCreateRequest = z.object({
  ...apiRequest,
  LoginId: loginId,
  Name: name,
  Password: password.optional(),
  TenantManager: z.boolean().optional(),
  Disabled: z.boolean().optional(),
  DeptId: deptId.optional(),
  TimeZone: timeZone.optional(),
  Language: language.optional(),
  MailAddresses: mailAddresses.optional(),
});

export const userUpdateRequest = z.object({
  ...apiRequest,
  LoginId: loginId.optional(),
  Name: name.optional(),
  Password: password.optional(),
  TenantManager: z.boolean().optional(),
  Disabled: z.boolean().optional(),
  DeptId: deptId.optional(),
  /** null takes the user's own zone away: the tenant's applies again. */
  TimeZone: timeZone.nullable().optional(),
  /** null takes the user's own language away: Service.DefaultLanguage applies again. */
  Language: language.nullable().optional(),
  MailAddresses: mailAddresses.optional(),
});

/** `"User,<id>"` or `"Dept,<id>"`: the reference's principal forms; groups hold users and depts. */
const member = z
  .string()
  .regex(/^(User|Dept),\d{1,15}$/, { message: 'a member is "User,<id>" or "Dept,<id>"' });

export const groupCreateRequest = z.object({
  ...apiRequest,
  GroupName: text({ min: 1, max: MAX_LENGTH.name }),
  Members: z.array(member).max(90).optional(),
});

export const groupUpdateRequest = z.object({
  ...apiRequest,
  GroupName: text({ min: 1, max: MAX_LENGTH.name }).optional(),
  Members: z.array(member).max(90).optional(),
});

export const deptCreateRequest = z.object({
  ...apiRequest,
  DeptCode: text({ max: 100 }).optional(),
  DeptName: text({ min: 1, max: MAX_LENGTH.name }),
  Disabled: z.boolean().optional(),
});

export const deptUpdateRequest = z.object({
  ...apiRequest,
  DeptCode: text({ max: 100 }).optional(),
  DeptName: text({ min: 1, max: MAX_LENGTH.name }).optional(),
  Disabled: z.boolean().optional(),
});

export const emptyRequest = z
  .object({ ...apiRequest })
  .meta({ id: 'ApiRequest', description: 'A request with no more than the API key' });

/** users|groups|depts/get and `{id}/get`: paged as the items API, the View applied to the accounts' columns. */
export const accountListRequest = z.object({
  ...apiRequest,
  Offset: integer({ min: 0, max: 2 ** 31 - 1 }).optional(),
  /** 1–199 kept, anything else read as 200 (reference 2). */
  PageSize: integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).optional(),
  /** ColumnFilterHash, ColumnFilterSearchTypes, ColumnSorterHash; any other property is a 400. */
  View: freeForm().nullable().optional(),
});

export const loginRequest = z.object({
  LoginId: text({ min: 1, max: MAX_LENGTH.name }),
  Password: text({ min: 1, max: MAX_LENGTH.password }),
});

export const userSchema = z
  .object({
    ApiVersion: z.number(),
    UserId: z.number().int(),
    TenantId: z.number().int(),
    LoginId: z.string(),
    Name: z.string(),
    TenantManager: z.boolean(),
    Disabled: z.boolean(),
    DeptId: z.number().int(),
    TimeZone: z.string(),
    /** `ja` or `en`; empty when the user has none (Service.DefaultLanguage applies). */
    Language: z.string(),
    HasApiKey: z.boolean(),
    Groups: z.array(z.string()),
    /** `yyyy-MM-ddTHH:mm:ss` in the caller's zone, as record times. */
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
  })
  .meta({ id: 'User' });

export const groupSchema = z
  .object({
    ApiVersion: z.number(),
    GroupId: z.number().int(),
    TenantId: z.number().int(),
    GroupName: z.string(),
    Members: z.array(z.string()),
    /** The reference's form: `User,<id>,False` (no member is a group admin in Kiroku). */
    GroupMembers: z.array(z.string()),
    /** `yyyy-MM-ddTHH:mm:ss` in the caller's zone, as record times. */
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
  })
  .meta({ id: 'Group' });

export const deptSchema = z
  .object({
    ApiVersion: z.number(),
    DeptId: z.number().int(),
    TenantId: z.number().int(),
    DeptCode: z.string(),
    DeptName: z.string(),
    Disabled: z.boolean(),
    /** `yyyy-MM-ddTHH:mm:ss` in the caller's zone, as record times. */
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
  })
  .meta({ id: 'Dept' });
