import { describe, expect, it } from 'vitest';
import { NotificationType as stored } from '../../../lib/notifications/model';
import {
  fieldsOf,
  headersProblem,
  NotificationType,
  namedInMessage,
  newNotification,
  storedNotification,
} from '../../../web/app/notifications';

describe('web/app/notifications', () => {
  it("knows the types by the server's numbers", () => {
    expect(NotificationType).toEqual(stored);
  });

  describe('fieldsOf', () => {
    it.each([
      [1, ['Prefix', 'Subject', 'Address', 'CcAddress', 'BccAddress']],
      [2, ['Prefix', 'Address']],
      [3, ['Prefix', 'Address', 'Token']],
      [9, ['Address', 'MethodType', 'Encoding', 'MediaType', 'Headers']],
    ])('type %d reads %j', (type, fields) => {
      expect(fieldsOf(type)).toEqual(fields);
    });

    it('shows every field of a type Kiroku does not send, so that nothing stored is hidden', () => {
      expect(fieldsOf(4)).toEqual(expect.arrayContaining(['Token', 'Address', 'Headers', 'CcAddress']));
    });
  });

  describe('storedNotification', () => {
    it.each([
      [
        'drops what the type ignores, empty texts, true triggers and unset conditions',
        {
          Id: 1,
          Type: 2,
          Address: 'https://x',
          CcAddress: 'a@b',
          Prefix: '',
          AfterCreate: true,
          BeforeCondition: 0,
        },
        { Id: 1, Type: 2, Address: 'https://x' },
      ],
      [
        'keeps a trigger turned off, Disabled, the chosen columns and what the page does not edit',
        {
          Id: 2,
          Type: 1,
          Address: 'a@b',
          AfterDelete: false,
          Disabled: true,
          MonitorChangesColumns: [],
          AfterImport: false,
        },
        {
          Id: 2,
          Type: 1,
          Address: 'a@b',
          AfterDelete: false,
          Disabled: true,
          MonitorChangesColumns: [],
          AfterImport: false,
        },
      ],
      [
        'drops the format when the custom format is off, and every column (undefined) as the default',
        {
          Id: 3,
          Type: 9,
          Address: 'https://x',
          UseCustomFormat: false,
          Format: '[Title]',
          MonitorChangesColumns: undefined,
          Disabled: false,
        },
        { Id: 3, Type: 9, Address: 'https://x' },
      ],
    ])('%s', (_name, entry, expected) => {
      expect(storedNotification(entry)).toEqual(expected);
    });
  });

  it('numbers a new notification after the highest id', () => {
    expect(
      newNotification([
        { Id: 4, Type: 1 },
        { Id: 9, Type: 2 },
      ]),
    ).toEqual({ Id: 10, Type: 2 });
  });

  it.each([
    ['', false],
    ['{"A": "b"}', false],
    ['{"A": ', true],
    ['["A"]', true],
    ['"text"', true],
  ])('headersProblem(%j) is %s', (headers, problem) => {
    expect(headersProblem(headers)).toBe(problem);
  });

  it.each([
    ['SiteSettings.Notifications[2].Address: not a URL', { index: 2, field: 'Address' }],
    ['Invalid SiteSettings.Notifications[0]: unknown Type 12', { index: 0, field: '' }],
    ['Title: too long', undefined],
  ])('namedInMessage(%j)', (message, named) => {
    expect(namedInMessage(message)).toEqual(named);
  });
});
