import type { Context } from 'aws-lambda';
import { runDueScripts } from '../lib/scripts/background/run';

/**
 * Every minute (lib/schedules.ts): runs the tenants' background scripts that are due
 * (lib/scripts/background/run.ts). It stops claiming runs when half its time is gone; those left run at
 * the next minute, by this invocation's successor or a concurrent one.
 */
export async function handler(_event: unknown, context?: Context): Promise<void> {
  const left = context?.getRemainingTimeInMillis?.();
  await runDueScripts(left === undefined ? {} : { stopClaimingAt: Date.now() + left / 2 });
}
