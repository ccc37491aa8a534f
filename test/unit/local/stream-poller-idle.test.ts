import { describe, expect, it } from 'vitest';
import { idleDelayMs } from '../../../local/stream-poller';

describe('local/stream-poller', () => {
  describe('idleDelayMs', () => {
    it.each([
      // A cheap empty read: the poll interval, as before.
      [2, 150, 150],
      [7, 150, 150],
      // A dear one (a quiet shard behind a big load): 20 times its cost, at most 1 s.
      [10, 150, 200],
      [40, 150, 800],
      [120, 150, 1000],
      [5000, 150, 1000],
      // An interval above the cap is kept.
      [500, 2000, 2000],
    ])('rests %i ms of reading at interval %i for %i ms', (elapsed, interval, delay) => {
      expect(idleDelayMs(elapsed, interval)).toBe(delay);
    });
  });
});
