import { describe, expect, it } from 'vitest';
import { noticeBody } from '../../../lib/notifications/format';
import { mailAddresses } from '../../../lib/notifications/record-notices';
import type { NotificationSetting } from '../../../lib/sites/notification-settings';
import { context, record, site } from './fixtures';

const notification = (fields: Partial<NotificationSetting> = {}): NotificationSetting => ({
  Id: 1,
  Type: 2,
  Address: 'https://hooks.test/1',
  ...fields,
});
const target = site({ Columns: [{ ColumnName: 'ClassA', LabelText: 'Kind' }] });

describe('lib/notifications/format', () => {
  describe('noticeBody', () => {
    it.each<[string, Partial<NotificationSetting>, boolean, string]>([
      [
        'a creation: the URL, every monitored column, who',
        { MonitorChangesColumns: ['Title', 'ClassA', 'Manager', 'NumA'] },
        false,
        '/#/items/100\nTitle : Order 1\nKind : a\nManager : Bob\nNumeric valueA : 5\n\nBob\n',
      ],
      [
        'an update: the changed columns as before => after',
        { MonitorChangesColumns: ['Title', 'ClassA'] },
        true,
        '/#/items/100\nKind : a => z\n\nBob\n',
      ],
      [
        'a custom Format with placeholders and a column format line',
        {
          UseCustomFormat: true,
          Format:
            'Order [Title] by {UserName} ({LoginId})\n{"Name":"[ClassA]","Delimiter":"=","Always":true}',
        },
        true,
        'Order Order 1 by Bob (bob)\nKind=a => z\n',
      ],
      [
        'a column format with ValueOnly and AfterChange',
        { UseCustomFormat: true, Format: '{"Name":"[ClassA]","ValueOnly":true,"DisplayTypes":2}' },
        true,
        'z\n',
      ],
      [
        'a custom Format ignored without UseCustomFormat',
        { Format: 'x', MonitorChangesColumns: ['ClassA'] },
        false,
        '/#/items/100\nKind : a\n\nBob\n',
      ],
    ])('%s', (_name, fields, update, expected) => {
      const before = record();
      const after = update ? record({ fields: { ...before.fields, Class: { ClassA: 'z' } } }) : before;
      const body = noticeBody(notification(fields), after, update ? before : undefined, context(target));
      expect(body).toBe(expected);
    });
  });

  describe('mailAddresses', () => {
    it.each([
      ['[RelatedUsers]', '[User1];[User2];[User3]'],
      ['[Manager], boss@x.test', '[User2], boss@x.test'],
      ['[ClassA]@x.test', 'a@x.test'],
      ['[Unknown]', '[Unknown]'],
    ])('%s → %s', (text, expected) => {
      expect(mailAddresses(text, record(), context(target))).toBe(expected);
    });
  });
});
