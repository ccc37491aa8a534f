import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '../../../lib/items/model';
import { fires, type RecordChange } from '../../../lib/notifications/triggers';
import type { NotificationSetting } from '../../../lib/sites/notification-settings';
import { context, record, site } from './fixtures';

/** View 1 selects Status 200, view 2 selects ClassA "b". */
const views = [
  { Id: 1, Name: 'done', ColumnFilterHash: { Status: '[200]' } },
  { Id: 2, Name: 'b', ColumnFilterHash: { ClassA: 'b' } },
];
const target = site({ Views: views });
const before = record();
const withClassA = (value: string, change: Partial<ItemRecord> = {}) =>
  record({ ...change, fields: { ...before.fields, Class: { ClassA: value } } });

const notification = (fields: Partial<NotificationSetting> = {}): NotificationSetting => ({
  Id: 1,
  Type: 2,
  Address: 'https://hooks.test/1',
  ...fields,
});
const created: RecordChange = { event: 'Created', after: before };
const deleted: RecordChange = { event: 'Deleted', before };
const updated = (after: ItemRecord): RecordChange => ({ event: 'Updated', before, after });

describe('lib/notifications/triggers', () => {
  describe('fires', () => {
    it.each<[string, Partial<NotificationSetting>, RecordChange, boolean]>([
      ['a creation', {}, created, true],
      ['a creation with AfterCreate false', { AfterCreate: false }, created, false],
      ['a deletion', {}, deleted, true],
      ['a deletion with AfterDelete false', { AfterDelete: false }, deleted, false],
      ['anything, Disabled', { Disabled: true }, created, false],
      ['an update of an editor column, none monitored', {}, updated(record({ title: 'Order 2' })), true],
      ['an update of no editor column, none monitored', {}, updated(withClassA('z')), false],
      [
        'an update of a monitored column',
        { MonitorChangesColumns: ['ClassA'] },
        updated(withClassA('z')),
        true,
      ],
      [
        'an update of an unmonitored column',
        { MonitorChangesColumns: ['ClassA'] },
        updated(record({ title: 'Order 2' })),
        false,
      ],
      ['an update that changes nothing', {}, updated(record({ ver: 2, updatedAt: 9 })), false],
      ['an update with AfterUpdate false', { AfterUpdate: false }, updated(record({ title: 'x' })), false],
      [
        'And: the After view holds, the Before view does not',
        { MonitorChangesColumns: ['Status'], BeforeCondition: 2, AfterCondition: 1, Expression: 2 },
        updated(record({ status: 200 })),
        false,
      ],
      [
        'And: both hold',
        { MonitorChangesColumns: ['Status'], BeforeCondition: 2, AfterCondition: 1, Expression: 2 },
        { event: 'Updated', before: withClassA('b'), after: withClassA('b', { status: 200 }) },
        true,
      ],
      [
        'Or: only the After view holds',
        { MonitorChangesColumns: ['Status'], BeforeCondition: 2, AfterCondition: 1, Expression: 1 },
        updated(record({ status: 200 })),
        true,
      ],
      [
        'Or: neither holds',
        { MonitorChangesColumns: ['Status'], BeforeCondition: 2, AfterCondition: 1, Expression: 1 },
        updated(record({ status: 300 })),
        false,
      ],
      [
        'an After view alone that does not hold',
        { MonitorChangesColumns: ['Status'], AfterCondition: 1 },
        updated(record({ status: 300 })),
        false,
      ],
      [
        'a view that does not exist matches everything',
        { MonitorChangesColumns: ['Status'], AfterCondition: 9, Expression: 2 },
        updated(record({ status: 300 })),
        true,
      ],
    ])('%s → %s', (_name, fields, change, expected) => {
      expect(fires(notification(fields), change, context(target))).toBe(expected);
    });
  });
});
