import { describe, expect, it } from 'vitest';
import { type BackgroundSchedule, backgroundSchedule } from '../../../lib/scripts/background/config';
import { nextRun, nextScriptRun } from '../../../lib/scripts/background/schedule';

const schedule = (fields: Record<string, unknown>): BackgroundSchedule => backgroundSchedule.parse(fields);
const iso = (at: number | undefined) => (at === undefined ? undefined : new Date(at).toISOString());
const at = (text: string) => Date.parse(text);

describe('lib/scripts/background/schedule', () => {
  describe('nextRun', () => {
    it.each([
      // Hourly: the minute of every hour that passes, in the zone's own offset.
      [
        'hourly :15 Tokyo',
        { ScheduleType: 'hourly', ScheduleHourlyTime: '15', ScheduleTimeZoneId: 'Asia/Tokyo' },
        '2026-03-01T00:20:00Z',
        '2026-03-01T01:15:00.000Z',
      ],
      [
        'hourly :00 Kolkata (+05:30)',
        { ScheduleType: 'hourly', ScheduleHourlyTime: 0, ScheduleTimeZoneId: 'Asia/Kolkata' },
        '2026-03-01T00:00:00Z',
        '2026-03-01T00:30:00.000Z',
      ],
      [
        'hourly :30, the hour New York skips',
        { ScheduleType: 'hourly', ScheduleHourlyTime: '30', ScheduleTimeZoneId: 'America/New_York' },
        '2026-03-08T06:40:00Z',
        '2026-03-08T07:30:00.000Z',
      ],
      [
        'hourly :30, the hour New York repeats runs again',
        { ScheduleType: 'hourly', ScheduleHourlyTime: '30', ScheduleTimeZoneId: 'America/New_York' },
        '2026-11-01T05:31:00Z',
        '2026-11-01T06:30:00.000Z',
      ],
      // Daily: strictly after; the next day when the time has come.
      [
        'daily 09:00 Tokyo, just before',
        { ScheduleType: 'daily', ScheduleDailyTime: '09:00', ScheduleTimeZoneId: 'Asia/Tokyo' },
        '2026-02-28T23:59:00Z',
        '2026-03-01T00:00:00.000Z',
      ],
      [
        'daily 09:00 Tokyo, at the time',
        { ScheduleType: 'daily', ScheduleDailyTime: '09:00', ScheduleTimeZoneId: 'Asia/Tokyo' },
        '2026-03-01T00:00:00Z',
        '2026-03-02T00:00:00.000Z',
      ],
      [
        'daily 02:30 New York, skipped by DST: 03:30 EDT',
        { ScheduleType: 'daily', ScheduleDailyTime: '02:30', ScheduleTimeZoneId: 'America/New_York' },
        '2026-03-07T08:00:00Z',
        '2026-03-08T07:30:00.000Z',
      ],
      [
        'daily 01:30 New York, repeated: the first',
        { ScheduleType: 'daily', ScheduleDailyTime: '01:30', ScheduleTimeZoneId: 'America/New_York' },
        '2026-10-31T06:00:00Z',
        '2026-11-01T05:30:00.000Z',
      ],
      [
        'daily 01:30 New York, repeated: once only',
        { ScheduleType: 'daily', ScheduleDailyTime: '01:30', ScheduleTimeZoneId: 'America/New_York' },
        '2026-11-01T05:30:00Z',
        '2026-11-02T06:30:00.000Z',
      ],
      [
        'daily 23:00 London in summer (BST)',
        { ScheduleType: 'daily', ScheduleDailyTime: '23:00', ScheduleTimeZoneId: 'Europe/London' },
        '2026-07-01T00:00:00Z',
        '2026-07-01T22:00:00.000Z',
      ],
      [
        'daily without a zone: Service.TimeZoneDefault',
        { ScheduleType: 'daily', ScheduleDailyTime: '00:00' },
        '2026-03-01T12:00:00Z',
        '2026-03-02T00:00:00.000Z',
      ],
      // Weekly: 1 Sunday … 7 Saturday.
      [
        'weekly Mon and Fri 08:00 London, from a Saturday',
        {
          ScheduleType: 'weekly',
          ScheduleWeeklyWeek: '[2,6]',
          ScheduleWeeklyTime: '08:00',
          ScheduleTimeZoneId: 'Europe/London',
        },
        '2026-01-31T12:00:00Z',
        '2026-02-02T08:00:00.000Z',
      ],
      [
        'weekly Sunday 23:00 Tokyo, an array',
        {
          ScheduleType: 'weekly',
          ScheduleWeeklyWeek: [1],
          ScheduleWeeklyTime: '23:00',
          ScheduleTimeZoneId: 'Asia/Tokyo',
        },
        '2026-02-01T15:00:00Z',
        '2026-02-08T14:00:00.000Z',
      ],
      // Monthly: a day a month lacks is skipped; 32 is the last day.
      [
        'monthly day 31: April skipped',
        {
          ScheduleType: 'monthly',
          ScheduleMonthlyMonth: '[1,2,3,4,5,6,7,8,9,10,11,12]',
          ScheduleMonthlyDay: '[31]',
          ScheduleMonthlyTime: '12:00',
          ScheduleTimeZoneId: 'UTC',
        },
        '2026-04-01T00:00:00Z',
        '2026-05-31T12:00:00.000Z',
      ],
      [
        'monthly last day of February, Tokyo',
        {
          ScheduleType: 'monthly',
          ScheduleMonthlyMonth: '[2]',
          ScheduleMonthlyDay: '[32]',
          ScheduleMonthlyTime: '00:00',
          ScheduleTimeZoneId: 'Asia/Tokyo',
        },
        '2027-01-01T00:00:00Z',
        '2027-02-27T15:00:00.000Z',
      ],
      [
        'monthly last day of February in a leap year',
        {
          ScheduleType: 'monthly',
          ScheduleMonthlyMonth: '[2]',
          ScheduleMonthlyDay: '[32]',
          ScheduleMonthlyTime: '00:00',
          ScheduleTimeZoneId: 'Asia/Tokyo',
        },
        '2028-01-01T00:00:00Z',
        '2028-02-28T15:00:00.000Z',
      ],
      [
        'monthly day 30 of February never comes',
        {
          ScheduleType: 'monthly',
          ScheduleMonthlyMonth: '[2]',
          ScheduleMonthlyDay: '[30]',
          ScheduleMonthlyTime: '00:00',
        },
        '2026-01-01T00:00:00Z',
        undefined,
      ],
      // Once: its time, then never again.
      [
        'once, before it',
        {
          ScheduleType: 'onlyonce',
          ScheduleOnlyOnceTime: '2026/12/01 09:00',
          ScheduleTimeZoneId: 'Asia/Tokyo',
        },
        '2026-11-01T00:00:00Z',
        '2026-12-01T00:00:00.000Z',
      ],
      [
        'once, after it',
        {
          ScheduleType: 'onlyonce',
          ScheduleOnlyOnceTime: '2026-12-01T09:00',
          ScheduleTimeZoneId: 'Asia/Tokyo',
        },
        '2026-12-01T00:00:00Z',
        undefined,
      ],
      [
        'once in New York (EST)',
        {
          ScheduleType: 'onlyonce',
          ScheduleOnlyOnceTime: '2026/12/01 09:00',
          ScheduleTimeZoneId: 'America/New_York',
        },
        '2026-11-01T00:00:00Z',
        '2026-12-01T14:00:00.000Z',
      ],
    ] as const)('%s', (_, fields, after, expected) => {
      expect(iso(nextRun(schedule(fields), at(after), 'UTC'))).toBe(expected);
    });
  });

  describe('nextScriptRun', () => {
    it('is the earliest of the schedules, and undefined without one', () => {
      const script = {
        Body: '',
        UserId: 1,
        backgoundSchedules: [
          schedule({ ScheduleType: 'daily', ScheduleDailyTime: '10:00', ScheduleTimeZoneId: 'UTC' }),
          schedule({ ScheduleType: 'hourly', ScheduleHourlyTime: '45', ScheduleTimeZoneId: 'UTC' }),
        ],
      };
      expect(iso(nextScriptRun(script, at('2026-03-01T09:50:00Z'), 'UTC'))).toBe('2026-03-01T10:00:00.000Z');
      expect(iso(nextScriptRun(script, at('2026-03-01T10:00:00Z'), 'UTC'))).toBe('2026-03-01T10:45:00.000Z');
      expect(nextScriptRun({ ...script, backgoundSchedules: [] }, 0, 'UTC')).toBeUndefined();
    });
  });

  describe('backgroundSchedule', () => {
    it.each([
      ['an unknown type', { ScheduleType: 'yearly' }, 'ScheduleType'],
      ['hourly without its minute', { ScheduleType: 'hourly' }, 'ScheduleHourlyTime'],
      ['a minute past 59', { ScheduleType: 'hourly', ScheduleHourlyTime: '60' }, 'ScheduleHourlyTime'],
      ['a time not HH:mm', { ScheduleType: 'daily', ScheduleDailyTime: '9:00' }, 'ScheduleDailyTime'],
      ['24:00', { ScheduleType: 'daily', ScheduleDailyTime: '24:00' }, 'ScheduleDailyTime'],
      ['weekly without days', { ScheduleType: 'weekly', ScheduleWeeklyTime: '08:00' }, 'ScheduleWeeklyWeek'],
      ['a day 8', { ScheduleType: 'weekly', ScheduleWeeklyWeek: '[8]' }, 'ScheduleWeeklyWeek'],
      ['days not JSON', { ScheduleType: 'weekly', ScheduleWeeklyWeek: 'Mon' }, 'ScheduleWeeklyWeek'],
      [
        'monthly without months',
        { ScheduleType: 'monthly', ScheduleMonthlyDay: '[1]' },
        'ScheduleMonthlyMonth',
      ],
      [
        'a month 13',
        { ScheduleType: 'monthly', ScheduleMonthlyMonth: '[13]', ScheduleMonthlyDay: '[1]' },
        'ScheduleMonthlyMonth',
      ],
      ['once without its time', { ScheduleType: 'onlyonce' }, 'ScheduleOnlyOnceTime'],
      [
        'a zone that is none',
        { ScheduleType: 'daily', ScheduleTimeZoneId: 'Mars/Olympus' },
        'ScheduleTimeZoneId',
      ],
      ['an unknown field', { ScheduleType: 'daily', Cron: '* * * * *' }, ''],
    ])('refuses %s', (_, fields, path) => {
      const parsed = backgroundSchedule.safeParse(fields);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toContain(path);
    });

    it("keeps the reference's strings: lists as sorted JSON text, the minute as text, the zone by its IANA name", () => {
      expect(
        schedule({
          ScheduleType: 'weekly',
          ScheduleWeeklyWeek: [6, 2, 2],
          ScheduleWeeklyTime: '08:00',
          ScheduleTimeZoneId: 'asia/tokyo',
        }),
      ).toEqual({
        ScheduleType: 'weekly',
        ScheduleWeeklyWeek: '[2,6]',
        ScheduleWeeklyTime: '08:00',
        ScheduleTimeZoneId: 'Asia/Tokyo',
      });
      expect(schedule({ ScheduleType: 'hourly', ScheduleHourlyTime: 5 }).ScheduleHourlyTime).toBe('5');
    });
  });
});
