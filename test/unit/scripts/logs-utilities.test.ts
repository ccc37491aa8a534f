import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useClock } from '../../../lib/clock';
import { logger } from '../../../lib/log';
import { runScript, runScripts, scriptUser } from '../../fixtures/script-runs';

// logs and utilities as a script sees them, in the real sandbox, answered by the real host calls.

beforeAll(async () => {
  await runScript('model.Title = "warm";');
}, 60_000);
beforeEach(() => {
  vi.restoreAllMocks();
  for (const level of ['info', 'warn', 'error'] as const) vi.spyOn(logger, level);
});
afterEach(() => useClock(undefined));

/** Runs the script and answers what it put in `model.Body` (JSON). */
async function seen(body: string, principal = scriptUser): Promise<unknown> {
  const model = await runScript(`model.Body = JSON.stringify((() => { ${body} })());`, {}, principal);
  return JSON.parse(String(model.Body));
}

const lines = (level: 'info' | 'warn' | 'error') =>
  vi
    .mocked(logger[level])
    .mock.calls.filter(([message]) => message === 'server script log')
    .map(([, fields]) => fields);

describe('logs', () => {
  it.each([
    ['LogInfo', 'info', 'Info'],
    ['LogWarning', 'warn', 'Warning'],
    ['LogUserError', 'warn', 'UserError'],
    ['LogSystemError', 'error', 'SystemError'],
    ['LogException', 'error', 'Exception'],
  ] as const)(
    '%s writes a %s line with the script, site and condition, and answers true',
    async (method, level, type) => {
      expect(await seen(`return logs.${method}('hello', 'step1');`)).toBe(true);
      expect(lines(level)).toEqual([
        {
          siteId: 10,
          condition: 'BeforeUpdate',
          script: 'test',
          logType: type,
          method: 'step1',
          message: 'hello',
        },
      ]);
    },
  );

  it.each([
    [10, 'info', 'Info'],
    [50, 'warn', 'Warning'],
    [60, 'warn', 'UserError'],
    [80, 'error', 'SystemError'],
    [90, 'error', 'Exception'],
    [42, 'info', 'Info'],
    ['"x"', 'info', 'Info'],
  ] as const)('Log(%s, …) writes a %s line of type %s', async (type, level, name) => {
    expect(await seen(`return logs.Log(${type}, 'typed');`)).toBe(true);
    expect(lines(level)).toEqual([expect.objectContaining({ logType: name, message: 'typed' })]);
  });

  it.each([
    ['console only', 'true, false', 1],
    ['SysLogs only', 'false, true', 1],
    ['neither', 'false, false', 0],
  ])('writes one line for %s', async (_case, flags, count) => {
    expect(await seen(`return logs.LogInfo('flags', '', ${flags});`)).toBe(true);
    expect(lines('info')).toHaveLength(count);
  });

  it('names each script of a condition in its own lines, and keeps them when the script then fails', async () => {
    const outcome = await runScripts([
      { Name: 'first', Body: "logs.LogInfo('one');", BeforeUpdate: true },
      { Name: 'second', Body: "logs.LogWarning('two'); throw new Error('broken');", BeforeUpdate: true },
    ]);
    expect(outcome?.kind).toBe('failed');
    expect(lines('info')).toEqual([expect.objectContaining({ script: 'first', message: 'one' })]);
    expect(lines('warn')).toEqual([expect.objectContaining({ script: 'second', message: 'two' })]);
  });
});

describe('utilities', () => {
  // 2026-03-15T20:00:00Z is 2026-03-16 05:00 in Tokyo and 2026-03-15 16:00 in New York.
  const at = Date.UTC(2026, 2, 15, 20, 0, 0);

  it.each([
    ['Today() in Tokyo', 'Asia/Tokyo', 'utilities.Today().toISOString()', '2026-03-15T15:00:00.000Z'],
    [
      'Today() in New York',
      'America/New_York',
      'utilities.Today().toISOString()',
      '2026-03-15T04:00:00.000Z',
    ],
    ['MinTime() in Tokyo', 'Asia/Tokyo', 'utilities.MinTime().toISOString()', '1899-12-31T15:00:00.000Z'],
    ['MaxTime() in Tokyo', 'Asia/Tokyo', 'utilities.MaxTime().toISOString()', '2099-12-31T15:00:00.000Z'],
    ['MinTime() in UTC', 'UTC', 'utilities.MinTime().toISOString()', '1900-01-01T00:00:00.000Z'],
    ['EmptyTime()', 'UTC', 'utilities.EmptyTime().toISOString()', '0001-01-01T00:00:00.000Z'],
    ['Today() is a Date', 'UTC', 'utilities.Today() instanceof Date', true],
  ])('%s', async (_case, timeZone, expression, expected) => {
    useClock(() => at);
    expect(await seen(`return ${expression};`, { ...scriptUser, timeZone })).toEqual(expected);
  });

  it.each([
    ['a date inside', "new Date('2026-03-15T00:00:00Z')", true],
    ['the lower bound', "new Date('1900-01-01T00:00:00Z')", true],
    ['just before it', "new Date('1899-12-31T23:59:59Z')", false],
    ['the upper bound', "new Date('2100-01-01T00:00:00Z')", true],
    ['just after it', "new Date('2100-01-01T00:00:01Z')", false],
    ['EmptyTime()', 'utilities.EmptyTime()', false],
    ['an invalid date', "new Date('no')", false],
    ['a date string', "'2026-03-15'", false],
    ['a number', '1773532800000', false],
    ['null', 'null', false],
    ['nothing', '', false],
  ])('InRange(%s) is %s', async (_case, argument, expected) => {
    expect(await seen(`return utilities.InRange(${argument});`)).toBe(expected);
  });

  it.each([
    ['ASCII in UTF-8', "'Kiroku'", '', 'S2lyb2t1'],
    ['Japanese in UTF-8 (the default)', "'日本'", '', '5pel5pys'],
    ['Japanese in UTF-8, named', "'日本'", ", 'utf-8'", '5pel5pys'],
    ['Japanese in Shift_JIS', "'日本'", ", 'shift_jis'", 'k/qWew=='],
    ['a user and password for Basic', "'user:pass'", '', 'dXNlcjpwYXNz'],
    ['an empty string', "''", '', ''],
  ])('ConvertToBase64String: %s', async (_case, value, encoding, expected) => {
    expect(await seen(`return utilities.ConvertToBase64String(${value}${encoding});`)).toBe(expected);
  });

  it('ConvertToBase64String throws for an encoding it does not know, as .NET does', async () => {
    expect(
      await seen("try { utilities.ConvertToBase64String('x', 'klingon'); } catch (e) { return e.message; }"),
    ).toBe('utilities.ConvertToBase64String: Encoding "klingon" is not known');
  });
});
