import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLocal, instantOf, offsetAt, parseDateTime, startOfDay, wallTime } from '../../lib/zoned-time';

/**
 * lib/zoned-time.ts keeps offsets by day instead of asking Intl for every date. These tests hold
 * every answer to what Intl says of that very instant, across zones with summer time, half and quarter
 * hours, negative summer time and historical local mean time, and around each change of offset, where a
 * kept day would be wrong.
 */

const ZONES = [
  'UTC',
  'Asia/Tokyo',
  'America/New_York',
  'Europe/London',
  'Europe/Dublin',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Africa/Casablanca',
  'Antarctica/Troll',
];

const intlFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall time straight from Intl, the era read, for the instant itself. */
function intlWallTime(instant: number, zone: string) {
  let format = intlFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    intlFormats.set(zone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((each) => each.type === type)?.value);
  const era = parts.find((each) => each.type === 'era')?.value;
  return {
    year: era === 'BC' ? 1 - part('year') : part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
    millisecond: ((instant % 1000) + 1000) % 1000,
  };
}

/** Each change of offset of `zone` between `from` and `to`: the first millisecond of the new offset. */
function changesOfOffset(zone: string, from: number, to: number): number[] {
  const offset = (instant: number) => {
    const wall = intlWallTime(instant, zone);
    const date = new Date(0);
    date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
    date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
    return date.getTime() - instant;
  };
  const changes: number[] = [];
  const step = 6 * 3_600_000;
  for (let at = from; at < to; at += step) {
    if (offset(at) === offset(at + step)) continue;
    let [low, high] = [at, at + step];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offset(middle) === offset(low)) low = middle;
      else high = middle;
    }
    changes.push(high);
  }
  return changes;
}

const DAY_MS = 86_400_000;
const YEAR_1800 = Date.UTC(1800, 0, 1);
const YEAR_2100 = Date.UTC(2100, 0, 1);

describe('zoned time', () => {
  it('gives the wall time Intl gives, in every zone, from 1800 to 2100', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: YEAR_1800, max: YEAR_2100 }),
        (zone, instant) => {
          expect(wallTime(instant, zone)).toEqual(intlWallTime(instant, zone));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it.each(ZONES.filter((zone) => zone !== 'UTC'))(
    'is exact at each change of offset of %s, a millisecond either side, after the days either side were kept',
    (zone) => {
      const changes = [
        ...changesOfOffset(zone, Date.UTC(1880, 0, 1), Date.UTC(1925, 0, 1)),
        ...changesOfOffset(zone, Date.UTC(2010, 0, 1), Date.UTC(2027, 0, 1)),
      ];
      expect(changes.length).toBeGreaterThan(0);
      for (const change of changes) {
        // The days either side are asked first, so that they are kept if they can be.
        for (const instant of [change - DAY_MS, change + DAY_MS, change - 1, change, change + 1]) {
          expect(wallTime(instant, zone), `${zone} at ${new Date(instant).toISOString()}`).toEqual(
            intlWallTime(instant, zone),
          );
        }
      }
    },
  );

  it.each([
    // [instant, zone, fraction, text]
    ['2026-01-15T00:00:00.000Z', 'Asia/Tokyo', false, '2026-01-15T09:00:00'],
    ['2026-07-01T12:34:56.789Z', 'America/New_York', true, '2026-07-01T08:34:56.789'],
    ['2026-07-01T12:34:56.000Z', 'America/New_York', true, '2026-07-01T08:34:56'],
    ['2026-03-08T07:00:00.000Z', 'America/New_York', false, '2026-03-08T03:00:00'],
    ['2026-03-08T06:59:59.999Z', 'America/New_York', true, '2026-03-08T01:59:59.999'],
    ['1887-12-31T14:59:59.000Z', 'Asia/Tokyo', false, '1888-01-01T00:18:58'],
    ['1887-12-31T15:00:00.000Z', 'Asia/Tokyo', false, '1888-01-01T00:00:00'],
    ['2026-04-04T14:59:59.000Z', 'Australia/Lord_Howe', false, '2026-04-05T01:59:59'],
    ['2026-04-04T15:00:00.000Z', 'Australia/Lord_Howe', false, '2026-04-05T01:30:00'],
    ['2026-06-01T00:00:00.000Z', 'Asia/Kathmandu', false, '2026-06-01T05:45:00'],
    ['0000-06-01T00:00:00.000Z', 'UTC', false, '0000-06-01T00:00:00'],
  ])('formats %s in %s (fraction %s) as %s', (iso, zone, fraction, text) => {
    expect(formatLocal(Date.parse(iso), zone, fraction)).toBe(text);
  });

  it.each([
    // A time a change skips is read with the offset after the change; a repeated one as the earlier.
    ['2026-03-08 02:30', 'America/New_York', '2026-03-08T06:30:00.000Z'],
    ['2026-11-01 01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ['2026-01-20', 'Asia/Tokyo', '2026-01-19T15:00:00.000Z'],
    ['2026/1/20 10:00', 'Asia/Kathmandu', '2026-01-20T04:15:00.000Z'],
    ['2026-01-20T10:00:00+02:00', 'Asia/Tokyo', '2026-01-20T08:00:00.000Z'],
  ])('reads %s in %s as %s', (text, zone, iso) => {
    expect(new Date(parseDateTime(text, zone) as number).toISOString()).toBe(iso);
  });

  it('round-trips every wall time that exists: instantOf after wallTime', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: YEAR_1800, max: YEAR_2100 }),
        (zone, instant) => {
          const wall = wallTime(instant, zone);
          const back = instantOf(wall, zone);
          // In a repeated hour the earlier instant is named; it shows the same wall time.
          expect(back).toBeLessThanOrEqual(instant);
          expect(wallTime(back, zone)).toEqual(wall);
          expect(offsetAt(back, zone)).toBe(
            Date.UTC(
              wall.year,
              wall.month - 1,
              wall.day,
              wall.hour,
              wall.minute,
              wall.second,
              wall.millisecond,
            ) - back,
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('starts the day at the wall midnight of the zone', () => {
    const instant = Date.parse('2026-11-24T20:00:00Z');
    expect(new Date(startOfDay(instant, 'Asia/Tokyo')).toISOString()).toBe('2026-11-24T15:00:00.000Z');
    expect(new Date(startOfDay(instant, 'Asia/Tokyo', 1)).toISOString()).toBe('2026-11-25T15:00:00.000Z');
  });

  it('refuses an instant that is no time, as Intl does', () => {
    expect(() => wallTime(Number.NaN, 'Asia/Tokyo')).toThrow(RangeError);
  });
});
