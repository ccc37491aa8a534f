import { now } from '../lib/clock';
import { logger } from '../lib/log';
import { runWakeups } from '../lib/notifications/wakeups';

/**
 * Every minute (lib/schedules.ts): wakes the deliveries whose next attempt falls due within this minute
 * (lib/notifications/wakeups.ts), looking again every few seconds until the next run starts.
 */
export async function handler(): Promise<void> {
  const until = (Math.floor(now() / 60_000) + 1) * 60_000;
  const woken = await runWakeups(until);
  if (woken > 0) logger.info('deliveries woken for a retry', { woken });
}
