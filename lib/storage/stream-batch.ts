import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';

/**
 * Partial batch responses for the DynamoDB stream handlers. A handler splits its batch into units of work
 * (a record, or a tenant's records), each naming the stream records it covers. When a unit fails, the
 * answer lists the sequence number of its first record and of every record after it: a stream is
 * ordered, so Lambda (ReportBatchItemFailures) and the local poller restart the batch at the lowest one
 * listed, and only what had not been settled runs again. Units before the failed one are kept.
 *
 * A unit after the failed one may already have run (concurrently, or a tenant group whose first record
 * came earlier); it runs again with the retry, so every unit must be safe to repeat.
 */
export interface StreamUnit {
  /** The stream records this unit applies, in stream order; never empty. */
  readonly records: readonly DynamoDBRecord[];
  readonly run: () => Promise<unknown>;
  /** Called when `run` failed, before the failure is reported (e.g. to mark what needs repair). */
  readonly recover?: (error: unknown) => Promise<unknown>;
  /** What the unit is, for the log. */
  readonly label: Readonly<Record<string, unknown>>;
}

export interface SettleOptions {
  /** Units run this many at a time (in stream order within the window); 1 by default. */
  readonly concurrency?: number;
  /**
   * Every unit runs, even after one failed: for units independent of each other (different tenants), so
   * that one unit's fault holds back no other's work. The failure reported is still from the first failed
   * unit on, and the units after it run again with the retry. Otherwise a failed window ends the batch.
   */
  readonly runAll?: boolean;
  /** Told of each failed unit, and of a failed recovery. */
  readonly onFailure: (error: unknown, unit: StreamUnit) => void;
}

export async function settleBatch(
  records: readonly DynamoDBRecord[],
  units: readonly StreamUnit[],
  options: SettleOptions,
): Promise<DynamoDBBatchResponse> {
  const position = new Map(records.map((record, at) => [record, at]));
  const first = (unit: StreamUnit) => Math.min(...unit.records.map((record) => position.get(record) ?? 0));
  const ordered = [...units].sort((a, b) => first(a) - first(b));
  const width = Math.max(1, options.concurrency ?? 1);
  let firstFailed: StreamUnit | undefined;
  for (let at = 0; at < ordered.length; at += width) {
    const window = ordered.slice(at, at + width);
    const results = await Promise.allSettled(window.map((unit) => unit.run()));
    for (const [index, result] of results.entries()) {
      if (result.status === 'fulfilled') continue;
      const failed = window[index] as StreamUnit;
      options.onFailure(result.reason, failed);
      await failed.recover?.(result.reason).catch((error: unknown) => options.onFailure(error, failed));
      firstFailed ??= failed;
      // Without runAll, only the window's first failure counts: the rest runs again anyway.
      if (!options.runAll) break;
    }
    if (firstFailed && !options.runAll) break;
  }
  return firstFailed ? failuresFrom(records, first(firstFailed)) : { batchItemFailures: [] };
}

/** The record at `from` and every one after it, as Lambda's batch item failures. */
export function failuresFrom(records: readonly DynamoDBRecord[], from: number): DynamoDBBatchResponse {
  return {
    batchItemFailures: records.slice(from).flatMap((record) => {
      const sequence = record.dynamodb?.SequenceNumber;
      return sequence === undefined ? [] : [{ itemIdentifier: sequence }];
    }),
  };
}
