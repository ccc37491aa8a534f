import * as z from 'zod';
import { text } from '../../schema';
import { conditions, flag, MAX_BODY_BYTES, screenConditions } from '../../sites/site-scripts';
import { ianaZone } from '../../zoned-time';

/**
 * A tenant's background (scheduled) server scripts, as the reference keeps them in its TenantSettings
 * (`BackgroundServerScripts`: `Scripts`, each a ServerScript with `UserId`, `Disabled` and the schedules
 * under the reference's own spelling `backgoundSchedules`), so that a tenant's settings move over unchanged.
 * Schedules keep the reference's strings too: `ScheduleWeeklyWeek` is a JSON list of days (1 Sunday … 7
 * Saturday, as Quartz counts them), `ScheduleMonthlyDay` one of days (32: the month's last),
 * `ScheduleMonthlyMonth` one of months, `ScheduleHourlyTime` the minute. A schedule that could never run is
 * refused here rather than dropped, as the reference drops it without a word.
 */

export const MAX_BACKGROUND_SCRIPTS = 100;
export const MAX_SCHEDULES = 20;

export const scheduleTypes = ['hourly', 'daily', 'weekly', 'monthly', 'onlyonce'] as const;
export type ScheduleType = (typeof scheduleTypes)[number];

const HH_MM = /^(([0-1][0-9])|20|21|22|23):[0-5][0-9]$/;
const hhmm = z.string().regex(HH_MM, { message: 'a time as HH:mm (00:00 to 23:59)' });

/** A list of whole numbers in [min, max], as the reference's JSON text (`"[1,3]"`) or as an array. */
function intList(min: number, max: number, what: string) {
  return z
    .union([z.string().max(400), z.array(z.number().min(min).max(max)).max(400)])
    .transform((value, check) => {
      let list: unknown = value;
      if (typeof value === 'string') {
        try {
          list = JSON.parse(value);
        } catch {
          list = undefined;
        }
      }
      const ok =
        Array.isArray(list) &&
        list.length > 0 &&
        list.every((item) => Number.isInteger(item) && item >= min && item <= max);
      if (!ok) {
        check.addIssue({ code: 'custom', message: `a non-empty list of ${what} (${min} to ${max})` });
        return z.NEVER;
      }
      // Stored as the reference stores it, sorted and without repeats.
      return JSON.stringify([...new Set(list as number[])].sort((a, b) => a - b));
    });
}

const minute = z
  .union([z.string().regex(/^\d{1,2}$/), z.number().int().min(0).max(59)])
  .transform((value) => Number(value))
  .refine((value) => value >= 0 && value <= 59, { message: 'the minute of the hour, 0 to 59' })
  .transform(String);

const zone = z
  .string()
  .max(100)
  .transform((value, check) => {
    // Empty: the user's zone, as the reference stores it.
    if (value === '') return '';
    const known = ianaZone(value);
    if (!known) {
      check.addIssue({ code: 'custom', message: 'an IANA time zone such as Asia/Tokyo' });
      return z.NEVER;
    }
    return known;
  });

export const backgroundSchedule = z
  .strictObject({
    Id: z.number().int().min(1).max(1_000_000).optional(),
    Name: text({ max: 1024 }).optional(),
    ScheduleType: z.enum(scheduleTypes),
    /** Absent or empty: Service.TimeZoneDefault, as the reference's Parameters.Service.TimeZoneDefault. */
    ScheduleTimeZoneId: zone.optional(),
    ScheduleHourlyTime: minute.optional(),
    ScheduleDailyTime: hhmm.optional(),
    ScheduleWeeklyWeek: intList(1, 7, 'days of the week, 1 Sunday to 7 Saturday').optional(),
    ScheduleWeeklyTime: hhmm.optional(),
    ScheduleMonthlyMonth: intList(1, 12, 'months').optional(),
    ScheduleMonthlyDay: intList(1, 32, 'days of the month, 32 the last').optional(),
    ScheduleMonthlyTime: hhmm.optional(),
    ScheduleOnlyOnceTime: text({ max: 40 }).optional(),
  })
  .superRefine((schedule, check) => {
    const need = (field: keyof typeof schedule) => {
      if (schedule[field] === undefined || schedule[field] === '')
        check.addIssue({ code: 'custom', path: [field], message: `required for ${schedule.ScheduleType}` });
    };
    if (schedule.ScheduleType === 'hourly') need('ScheduleHourlyTime');
    if (schedule.ScheduleType === 'weekly') need('ScheduleWeeklyWeek');
    if (schedule.ScheduleType === 'monthly') {
      need('ScheduleMonthlyMonth');
      need('ScheduleMonthlyDay');
    }
    if (schedule.ScheduleType === 'onlyonce') need('ScheduleOnlyOnceTime');
  })
  .meta({ id: 'BackgroundSchedule' });
export type BackgroundSchedule = z.output<typeof backgroundSchedule>;

/** The site conditions a ServerScript carries: a background script's are all false, as the reference writes them. */
const off = z.union([z.literal(false), z.number().int().min(0).max(0)]).transform(() => false);
const siteConditions = [...conditions, ...screenConditions.filter((name) => name !== 'Background')];

export const backgroundScript = z
  .strictObject({
    Id: z.number().int().min(1).max(1_000_000).optional(),
    Title: text({ max: 1024 }).optional(),
    Name: text({ max: 1024 }).optional(),
    Body: text({ max: MAX_BODY_BYTES }).refine((body) => Buffer.byteLength(body) <= MAX_BODY_BYTES, {
      message: `a script body is at most ${MAX_BODY_BYTES} bytes`,
    }),
    /** The execution user: an enabled user of the tenant (checked against the accounts on update). */
    UserId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    Disabled: flag.optional(),
    Shared: flag.optional(),
    Functionalize: flag.optional(),
    TryCatch: flag.optional(),
    /** Milliseconds; 0 or absent: Script.ServerScriptTimeOut alone. */
    TimeOut: z.number().int().min(0).max(2_147_483_647).optional(),
    /** The reference marks every script of the list so. */
    Background: z.literal(true).optional(),
    backgoundSchedules: z.array(backgroundSchedule).max(MAX_SCHEDULES).default([]),
    // The reference's form fields, stored with the script but read by nothing.
    ServerScriptSchedule1: z.string().max(1024).nullable().optional(),
    ServerScriptSchedule2: z.string().max(1024).nullable().optional(),
    ...Object.fromEntries(siteConditions.map((name) => [name, off.optional()])),
  })
  .meta({ id: 'BackgroundServerScript' });
export type BackgroundScript = z.output<typeof backgroundScript>;

export const backgroundScripts = z
  .strictObject({
    Scripts: z.array(backgroundScript).max(MAX_BACKGROUND_SCRIPTS),
    /** The reference's copy of the tenant's id: ignored, the caller's tenant is the one changed. */
    TenantId: z.number().int().optional(),
  })
  .meta({ id: 'BackgroundServerScripts' });
export type BackgroundScripts = z.output<typeof backgroundScripts>;

/** Ids for the scripts and schedules that have none, after the highest given, as the reference numbers them. */
export function numbered(scripts: readonly BackgroundScript[]): BackgroundScript[] {
  let next = Math.max(0, ...scripts.map((script) => script.Id ?? 0));
  return scripts.map((script) => {
    let nextSchedule = Math.max(0, ...script.backgoundSchedules.map((schedule) => schedule.Id ?? 0));
    return {
      ...script,
      Id: script.Id ?? ++next,
      Background: true,
      backgoundSchedules: script.backgoundSchedules.map((schedule) => ({
        ...schedule,
        Id: schedule.Id ?? ++nextSchedule,
      })),
    };
  });
}
