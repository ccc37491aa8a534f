import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { recordChangesOf } from '../../../lib/notifications/record-notices';

const item = (kind: string, change: Record<string, unknown> = {}) =>
  marshall({
    Kind: kind,
    TenantId: 1,
    SiteId: 10,
    RecordId: 100,
    Title: 'x',
    UpdatedAt: 5_000,
    ...change,
  }) as Record<string, AttributeValue>;
const streamRecord = (
  eventName: DynamoDBRecord['eventName'],
  images: { OldImage?: Record<string, AttributeValue>; NewImage?: Record<string, AttributeValue> },
): DynamoDBRecord => ({
  eventID: `e-${eventName}`,
  eventName,
  dynamodb: { ApproximateCreationDateTime: 4, SequenceNumber: '1', ...images },
});

describe('lib/notifications/record-notices', () => {
  describe('recordChangesOf', () => {
    it.each<[string, DynamoDBRecord, string | undefined]>([
      ['a record inserted: Created', streamRecord('INSERT', { NewImage: item('record') }), 'Created'],
      [
        'a record modified: Updated',
        streamRecord('MODIFY', { OldImage: item('record'), NewImage: item('record', { Title: 'y' }) }),
        'Updated',
      ],
      ['a record removed: Deleted', streamRecord('REMOVE', { OldImage: item('record') }), 'Deleted'],
      [
        'a record that becomes another kind: Deleted',
        streamRecord('MODIFY', { OldImage: item('record'), NewImage: item('deleted') }),
        'Deleted',
      ],
      ['a site: nothing', streamRecord('INSERT', { NewImage: item('site') }), undefined],
      ['a history row: nothing', streamRecord('INSERT', { NewImage: item('history') }), undefined],
      [
        'a record restored from the recycle bin: nothing',
        streamRecord('INSERT', { NewImage: item('record', { Restored: true }) }),
        undefined,
      ],
    ])('%s', (_name, record, event) => {
      expect(recordChangesOf([record])[0]?.event).toBe(event);
    });

    it("takes the stream record's id as the source and the record's UpdatedAt as the time", () => {
      const [change] = recordChangesOf([streamRecord('INSERT', { NewImage: item('record') })]);
      expect(change).toMatchObject({ tenantId: 1, siteId: 10, recordId: 100, source: 'e-INSERT', at: 5_000 });
      const [deleted] = recordChangesOf([streamRecord('REMOVE', { OldImage: item('record') })]);
      expect(deleted?.at).toBe(5_001);
    });
  });
});
