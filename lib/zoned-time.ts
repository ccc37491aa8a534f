/**
 * Wall-clock times in an IANA zone ↔ instants, with the runtime's Intl data (no library). The reference
 * reads and writes dates in the caller's zone (CONTRACT 5.1), and filters by "today" in it.
 */

export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** True when the runtime knows the zone. */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The IANA name of a zone a user or tenant chose (`asia/tokyo` → `Asia/Tokyo`), or undefined when it is not
 * one: offsets such as `+09:00`, which the runtime also takes, are not zones with rules.
 */
export function ianaZone(zone: string): string | undefined {
  if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone) || !isTimeZone(zone)) return undefined;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

/** The wall-clock time of `instant` in `zone`. */
export function wallTime(instant: number, zone: string): WallTime {
  const shifted = new Date(instant + offsetAt(instant, zone));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
  };
}

/** The instant a wall-clock time in `zone` names (the earlier one in a repeated hour). */
export function instantOf(time: WallTime, zone: string): number {
  const asUtc = Date.UTC(
    time.year,
    time.month - 1,
    time.day,
    time.hour,
    time.minute,
    time.second,
    time.millisecond,
  );
  // The offsets in force around it: a wall time that exists is named under one of them; in a repeated
  // hour (or two, as Antarctica/Troll's fall back) under two, and the earlier instant is the one named.
  let named: number | undefined;
  for (const offset of new Set([-DAY_MS, 0, DAY_MS].map((shift) => offsetAt(asUtc + shift, zone)))) {
    const instant = asUtc - offset;
    if (offsetAt(instant, zone) === offset && (named === undefined || instant < named)) named = instant;
  }
  if (named !== undefined) return named;
  // A wall time in a gap, which no offset names: the offset found at the guess, as before.
  let instant = asUtc - offsetAt(asUtc, zone);
  instant = asUtc - offsetAt(instant, zone);
  return instant;
}

/**
 * Offsets by zone and UTC day. Asking Intl for a wall time takes about 4 µs, and a page of records shows
 * several dates each; an offset holds for months, so most answers come from here. A day is kept only when
 * the offset is the same at its first and its last millisecond; a day that holds a change of offset is
 * asked of Intl at each instant. That is exact unless a day held two changes that cancel out: in Node 24's
 * zone data, every zone scanned in 3-hour steps from 1900 to 2037, one zone's changes are at least 167
 * hours apart. The map is emptied when full, so reading years of dates cannot grow it for good.
 */
const DAY_MS = 86_400_000;
/** The last millisecond a Date holds (ECMA-262 21.4.1.22). */
const MAX_INSTANT = 8.64e15;
const MAX_KEPT_OFFSETS = 50_000;
const keptOffsets = new Map<string, number>();

/** How far `zone` is ahead of UTC at `instant`, in ms. */
export function offsetAt(instant: number, zone: string): number {
  const day = Math.floor(instant / DAY_MS);
  const key = `${zone} ${day}`;
  const kept = keptOffsets.get(key);
  if (kept !== undefined) return kept;
  const first = day * DAY_MS;
  if (Math.abs(first) > MAX_INSTANT - DAY_MS) return measuredOffset(instant, zone);
  const atFirst = measuredOffset(first, zone);
  if (measuredOffset(first + DAY_MS - 1, zone) !== atFirst) return measuredOffset(instant, zone);
  if (keptOffsets.size >= MAX_KEPT_OFFSETS) keptOffsets.clear();
  keptOffsets.set(key, atFirst);
  return atFirst;
}

const floorTo = (value: number, unit: number) => value - (((value % unit) + unit) % unit);

/**
 * The offset at `instant` as Intl tells it: the wall clock's day and time against the instant's own. An
 * offset is under a day, so the wall day is the UTC day before, the same or the next; the year is never
 * read, since Intl writes year 0 as 1 (before Christ, with no era asked).
 */
function measuredOffset(instant: number, zone: string): number {
  const wall = { day: 0, hour: 0, minute: 0, second: 0 };
  for (const { type, value } of formatter(zone).formatToParts(new Date(instant))) {
    if (type in wall) wall[type as keyof typeof wall] = Number(value);
  }
  const clock = ((wall.hour * 60 + wall.minute) * 60 + wall.second) * 1000;
  const midnight = floorTo(instant, DAY_MS);
  for (const days of [0, 1, -1]) {
    const start = midnight + days * DAY_MS;
    if (new Date(start).getUTCDate() === wall.day) return start + clock - floorTo(instant, 1000);
  }
  throw new RangeError(`no offset of ${zone} at ${instant}`);
}

/** Midnight at the start of the caller's day `days` after the day of `instant`. */
export function startOfDay(instant: number, zone: string, days = 0): number {
  const wall = wallTime(instant, zone);
  return instantOf({ ...wall, day: wall.day + days, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

const DATE_TIME =
  /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A date as the reference reads one (`2025/1/20`, `2025-01-20`, `2025/01/20 10:00`, ISO 8601): without an
 * offset it is a wall time of `zone`; with `Z` or an offset it is that instant (a departure: the reference
 * drops the zone). Undefined when it is no such date or names a day that does not exist.
 */
export function parseDateTime(text: string, zone: string): number | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const time: WallTime = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    millisecond: Math.floor(Number(`0.${fraction ?? '0'}`) * 1000),
  };
  const check = new Date(Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second));
  if (
    check.getUTCFullYear() !== time.year ||
    check.getUTCMonth() !== time.month - 1 ||
    check.getUTCDate() !== time.day ||
    check.getUTCHours() !== time.hour ||
    check.getUTCMinutes() !== time.minute ||
    check.getUTCSeconds() !== time.second
  ) {
    return undefined;
  }
  if (offset === undefined) return instantOf(time, zone);
  const asUtc = check.getTime() + time.millisecond;
  if (offset === 'Z') return asUtc;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  return asUtc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * `yyyy-MM-ddTHH:mm:ss` in `zone`, without offset, as the reference answers dates; milliseconds follow
 * only when `fraction` is asked and they are not zero.
 */
export function formatLocal(instant: number, zone: string, fraction = false): string {
  const t = wallTime(instant, zone);
  const text = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
  return fraction && t.millisecond !== 0 ? `${text}.${pad(t.millisecond, 3)}` : text;
}

/** What the reference answers for a date that is not set (OLE Automation's day zero). */
export const UNSET_DATE = '1899-12-30T00:00:00';
