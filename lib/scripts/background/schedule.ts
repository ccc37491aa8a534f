import { instantOf, offsetAt, parseDateTime, type WallTime, wallTime } from '../../zoned-time';
import type { BackgroundSchedule, BackgroundScript } from './config';

/**
 * When a background script runs next, as the reference's Quartz cron triggers fire in the schedule's time
 * zone: Hourly at minute m of every hour, Daily at HH:mm, Weekly on the days listed (1 Sunday … 7 Saturday),
 * Monthly on the days listed (32: the last) of the months listed, Once at its date and time.
 *
 * Daylight saving: a time the clocks skip runs at the same time shifted by the gap (02:30 on a night that
 * jumps from 02:00 to 03:00 runs at 03:30), and a time they repeat runs once, at its first occurrence, so
 * a daily script runs once a day either way. Hourly ones run at their minute of every hour that really
 * passes: twice in a repeated hour, not at all in a skipped one.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The furthest a recurring schedule is searched: every listed day exists within 8 years (29 February). */
const MAX_DAYS = 8 * 366 + 1;

/** The first time after `after` (epoch ms) that the schedule fires; undefined when it never fires again. */
export function nextRun(
  schedule: BackgroundSchedule,
  after: number,
  defaultZone: string,
): number | undefined {
  const zone = schedule.ScheduleTimeZoneId || defaultZone;
  switch (schedule.ScheduleType) {
    case 'hourly':
      return nextHourly(Number(schedule.ScheduleHourlyTime), after, zone);
    case 'daily':
      return nextOnDays(() => true, schedule.ScheduleDailyTime, after, zone);
    case 'weekly': {
      const days = list(schedule.ScheduleWeeklyWeek);
      return nextOnDays((date) => days.has(weekday(date)), schedule.ScheduleWeeklyTime, after, zone);
    }
    case 'monthly': {
      const months = list(schedule.ScheduleMonthlyMonth);
      const days = list(schedule.ScheduleMonthlyDay);
      const fits = (date: Day) =>
        months.has(date.month) &&
        (days.has(date.day) || (days.has(32) && date.day === daysIn(date.year, date.month)));
      return nextOnDays(fits, schedule.ScheduleMonthlyTime, after, zone);
    }
    case 'onlyonce': {
      const at = parseDateTime(schedule.ScheduleOnlyOnceTime ?? '', zone);
      return at !== undefined && at > after ? at : undefined;
    }
  }
}

/** The first run after `after` of any of the script's schedules. */
export function nextScriptRun(
  script: BackgroundScript,
  after: number,
  defaultZone: string,
): number | undefined {
  let next: number | undefined;
  for (const schedule of script.backgoundSchedules) {
    const at = nextRun(schedule, after, defaultZone);
    if (at !== undefined && (next === undefined || at < next)) next = at;
  }
  return next;
}

interface Day {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

function list(text: string | undefined): Set<number> {
  try {
    const parsed: unknown = JSON.parse(text ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.map(Number) : []);
  } catch {
    return new Set();
  }
}

/** Quartz's day of the week: 1 Sunday … 7 Saturday. */
const weekday = (date: Day) => new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 1;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Minute by minute over the next two hours of real time: the zone's own offsets decide which minute it is. */
function nextHourly(minute: number, after: number, zone: string): number | undefined {
  const start = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  for (let at = start; at <= start + 2 * 60 * MINUTE; at += MINUTE) {
    if (wallTime(at, zone).minute === minute) return at;
  }
  return undefined;
}

/** The instant of a wall time; one the clocks skip is moved on by the gap, as the clocks are. */
function onClock(time: WallTime, zone: string): number {
  const at = instantOf(time, zone);
  const shown = wallTime(at, zone);
  if (shown.hour === time.hour && shown.minute === time.minute) return at;
  const asUtc = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute);
  // The offset before the jump names the wall time as the clocks would have shown it without the jump.
  return Math.max(asUtc - offsetAt(asUtc - DAY, zone), asUtc - offsetAt(asUtc + DAY, zone));
}

/** The first day from the date of `after` (in `zone`) that fits, at `time` (HH:mm) on it, after `after`. */
function nextOnDays(fits: (date: Day) => boolean, time: string | undefined, after: number, zone: string) {
  const [hour, minute] = (time ?? '00:00').split(':').map(Number) as [number, number];
  const today = wallTime(after, zone);
  for (let offset = 0; offset <= MAX_DAYS; offset++) {
    const shifted = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const date = {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
    };
    if (!fits(date)) continue;
    const at = onClock({ ...date, hour, minute, second: 0, millisecond: 0 }, zone);
    if (at > after) return at;
  }
  return undefined;
}
