import { describe, expect, it } from 'vitest';
import { nextAttemptAt, RETRY_WINDOW_MS } from '../../../lib/notifications/retries';

const start = Date.parse('2026-01-31T00:00:00Z');
const middle = () => 0.5;

describe('lib/notifications/retries', () => {
  describe('nextAttemptAt', () => {
    it.each([
      [1, 10_000],
      [2, 30_000],
      [3, 60_000],
      [4, 120_000],
      [5, 300_000],
      [6, 600_000],
      [7, 1_800_000],
      [8, 3_600_000],
      [20, 3_600_000],
    ])('after attempt %i waits %i ms', (attempts, delay) => {
      expect(nextAttemptAt(start, attempts, start + 1_000, middle)).toBe(start + 1_000 + delay);
    });

    it.each([
      [0, 0.8],
      [0.999_999, 1.2],
    ])('stretches or shrinks a delay by a fifth at most (random %d)', (random, factor) => {
      expect(nextAttemptAt(start, 3, start, () => random)).toBe(start + Math.round(60_000 * factor));
    });

    it('makes the last attempt at the end of the 24 hours, then gives up', () => {
      const late = start + RETRY_WINDOW_MS - 60_000;
      expect(nextAttemptAt(start, 30, late, middle)).toBe(start + RETRY_WINDOW_MS);
      expect(nextAttemptAt(start, 31, start + RETRY_WINDOW_MS, middle)).toBeUndefined();
    });

    it('makes about 30 attempts in a window', () => {
      let attempts = 1;
      for (let at: number | undefined = start; at !== undefined; attempts++)
        at = nextAttemptAt(start, attempts, at, middle);
      expect(attempts).toBeGreaterThan(25);
      expect(attempts).toBeLessThan(35);
    });
  });
});
