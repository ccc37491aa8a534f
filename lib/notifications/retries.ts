/**
 * When a delivery that did not go through is tried again (CONTRACT 14): after 10 s, 30 s, 1, 2, 5, 10 and
 * 30 min, then every hour, each delay stretched or shrunk by up to a fifth at random (so that the
 * deliveries a receiver's outage held back do not all come back in the same second), for 24 hours after
 * the first attempt (or the replay that started it again). The last attempt is made at the end of the
 * window; what still fails then is Failed, in the failure queue.
 */

export const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
export const RETRY_WINDOW_MS = 24 * 3_600_000;
const JITTER = 0.2;

/**
 * When attempt number `attempts + 1` is due, `attempts` having been made and the last at `at`, in a window
 * that began at `windowFrom` (epoch ms); undefined when the window is over.
 */
export function nextAttemptAt(
  windowFrom: number,
  attempts: number,
  at: number,
  random: () => number = Math.random,
): number | undefined {
  const end = windowFrom + RETRY_WINDOW_MS;
  if (at >= end) return undefined;
  const base =
    RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? (RETRY_DELAYS_MS[0] as number);
  const delay = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  return Math.min(at + delay, end);
}
