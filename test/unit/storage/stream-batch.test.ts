import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type StreamUnit, settleBatch } from '../../../lib/storage/stream-batch';

const records: DynamoDBRecord[] = ['1', '2', '3', '4'].map((SequenceNumber) => ({
  dynamodb: { SequenceNumber },
}));

/** One unit per record; the ones named in `failing` throw. What ran, in order. */
function unitsOf(failing: ReadonlySet<number>) {
  const ran: number[] = [];
  const units: StreamUnit[] = records.map((record, at) => ({
    records: [record],
    label: { at },
    run: async () => {
      ran.push(at);
      if (failing.has(at)) throw new Error(`unit ${at}`);
    },
  }));
  return { ran, units };
}

describe('lib/storage/stream-batch', () => {
  describe('settleBatch', () => {
    it.each([
      ['stops at the first failed window by default', {}, [0, 1]],
      ['runs every unit with runAll', { runAll: true }, [0, 1, 2, 3]],
    ])('%s, and reports from the first failed unit on', async (_name, options, expectedRuns) => {
      const { ran, units } = unitsOf(new Set([1, 2]));
      const failures: unknown[] = [];
      const result = await settleBatch(records, units, {
        ...options,
        onFailure: (error) => failures.push(error),
      });
      expect(ran).toEqual(expectedRuns);
      expect(result.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(['2', '3', '4']);
      expect(failures).toHaveLength(expectedRuns.length === 4 ? 2 : 1);
    });

    it('reports nothing when every unit ran', async () => {
      const { units } = unitsOf(new Set());
      expect(await settleBatch(records, units, { runAll: true, onFailure: () => {} })).toEqual({
        batchItemFailures: [],
      });
    });
  });
});
