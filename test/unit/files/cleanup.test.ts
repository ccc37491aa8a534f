import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { cleanupOf } from '../../../lib/files/cleanup';

const image = (item: Record<string, unknown> | undefined) =>
  item && (marshall(item) as Record<string, AttributeValue>);
const change = (before?: Record<string, unknown>, after?: Record<string, unknown>): DynamoDBRecord => ({
  dynamodb: { OldImage: image(before), NewImage: image(after) },
});

const marker = { pk: 'T1#BABC', sk: 'INLINE', ObjectKey: 'files/1/ABC/x', ExpiresAt: 1 };
const committed = { ...marker, Committed: true };

describe('cleanupOf', () => {
  describe('inline file markers', () => {
    it.each([
      ['an uncommitted marker removed (a failed write, or expiry)', change(marker), ['files/1/ABC/x']],
      ['a committed marker expiring', change(committed), []],
      ['a marker committed by its record write', change(marker, committed), []],
      ['a marker written', change(undefined, marker), []],
    ])('%s', (_, record, objects) => {
      expect(cleanupOf([record]).objects).toEqual(objects);
    });
  });
});
