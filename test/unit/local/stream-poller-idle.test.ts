import { describe, expect, it } from 'vitest';
import { idleDelayMs } from '../../../local/stream-poller';

describe('local/stream-poller', () => {
  describe('idleDelayMs', () => {
    it.each([
      // A cheap empty read: the poll interval, as before.
      [2, 150, 150],
      [249, 150, 150],
      // A dear one (a quiet shard behind a big load): 50 times its cost, at most 60 s.
      [250, 150, 12500],
      [600, 150, 30000],
      [5000, 150, 60000],
      // An interval above the cap is kept.
      [300, 70000, 70000],
    ])('rests %i ms of reading at interval %i for %i ms', (elapsed, interval, delay) => {
      expect(idleDelayMs(elapsed, interval)).toBe(delay);
    });
  });
});
