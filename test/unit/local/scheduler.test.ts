import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler } from '../../../local/scheduler';

describe('local/scheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('startScheduler', () => {
    it('runs each handler at once, then at the start of every period of the clock, until stopped', async () => {
      vi.useFakeTimers({ now: Date.parse('2026-01-31T00:00:20Z') });
      const runs: string[] = [];
      const scheduler = startScheduler(
        [{ handler: 'tick', everyMinutes: 1, tables: {} }],
        async (name) => async () => {
          runs.push(`${name} ${new Date().toISOString()}`);
        },
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(runs).toEqual(['tick 2026-01-31T00:00:20.000Z']);
      await vi.advanceTimersByTimeAsync(40_000);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(runs).toEqual([
        'tick 2026-01-31T00:00:20.000Z',
        'tick 2026-01-31T00:01:00.000Z',
        'tick 2026-01-31T00:02:00.000Z',
      ]);
      scheduler.stop();
      await vi.advanceTimersByTimeAsync(180_000);
      expect(runs).toHaveLength(3);
    });

    it('skips a run while the last one is still going, and goes on after a failed one', async () => {
      vi.useFakeTimers({ now: Date.parse('2026-01-31T00:00:00Z') });
      let started = 0;
      const scheduler = startScheduler(
        [{ handler: 'slow', everyMinutes: 1, tables: {} }],
        async () => async () => {
          started++;
          if (started === 1) await new Promise((resolve) => setTimeout(resolve, 90_000));
          else throw new Error('a failed run');
        },
      );
      await vi.advanceTimersByTimeAsync(60_000);
      expect(started).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(started).toBe(2);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(started).toBe(3);
      scheduler.stop();
    });
  });
});
