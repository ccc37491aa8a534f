import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** A condition of the write (or of a transaction's part) failed: the item changed, vanished or exists. */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || failedConditions(error).length > 0;
}

/** The indexes of the parts of a cancelled transaction whose condition failed; none for other errors. */
export function failedConditions(error: unknown): number[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
}
