import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { ConcurrentChangeError } from '../errors';

/**
 * Optimistic writes: read, apply, write on condition that nothing changed. A write that loses the race is
 * not the caller's problem: the whole read-apply-write runs again, a few times, after a short random pause
 * so that the racers spread out. Eight concurrent updates of one record need at most eight rounds.
 */
export const MAX_ATTEMPTS = 12;

export async function retryOnConcurrentChange<T>(attempt: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConcurrentChangeError) || round >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * Math.min(round, 5)));
    }
  }
}

/** Another transaction held one of the items: nothing was checked, the write may simply run again. */
export function isTransactionConflict(error: unknown): boolean {
  if (error instanceof TransactionConflictException) return true;
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict')
  );
}
