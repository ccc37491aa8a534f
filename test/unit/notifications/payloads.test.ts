import { describe, expect, it } from 'vitest';
import type { Notice } from '../../../lib/notifications/model';
import { addressList, noticesOf } from '../../../lib/notifications/payloads';
import type { NotificationSetting } from '../../../lib/sites/notification-settings';

const message = {
  title: '" Order 1 " has been updated.',
  body: '/#/items/100\nTitle : Order 1\n',
  userName: 'Bob',
};
const text = '*[Shop]" Order 1 " has been updated.*\n/#/items/100\nTitle : Order 1\n';
const json = 'application/json; charset=utf-8';
const form = 'application/x-www-form-urlencoded; charset=utf-8';

const notification = (fields: Partial<NotificationSetting>): NotificationSetting => ({
  Id: 1,
  Type: 1,
  Prefix: '[Shop]',
  ...fields,
});

describe('lib/notifications/payloads', () => {
  describe('noticesOf', () => {
    it.each<[string, Partial<NotificationSetting>, Notice[]]>([
      [
        'Slack: POST {text, username}',
        { Type: 2, Address: 'https://hooks.slack.test/T1' },
        [
          {
            kind: 'http',
            type: 2,
            url: 'https://hooks.slack.test/T1',
            method: 'POST',
            headers: {},
            body: JSON.stringify({ text, username: 'Bob' }),
            contentType: json,
            signed: false,
          },
        ],
      ],
      [
        'RocketChat: as Slack',
        { Type: 7, Address: 'https://chat.test/hooks/x' },
        [
          {
            kind: 'http',
            type: 7,
            url: 'https://chat.test/hooks/x',
            method: 'POST',
            headers: {},
            body: JSON.stringify({ text, username: 'Bob' }),
            contentType: json,
            signed: false,
          },
        ],
      ],
      [
        'Teams: one POST {text} per comma-separated URL',
        { Type: 6, Address: 'https://a.test/1, https://b.test/2' },
        ['https://a.test/1', 'https://b.test/2'].map((url) => ({
          kind: 'http' as const,
          type: 6 as const,
          url,
          method: 'POST' as const,
          headers: {},
          body: JSON.stringify({ text }),
          contentType: json,
          signed: false,
        })),
      ],
      [
        'ChatWork: form body= with X-ChatWorkToken',
        { Type: 3, Address: 'https://api.chatwork.test/v2/rooms/1/messages', Token: 'tok' },
        [
          {
            kind: 'http',
            type: 3,
            url: 'https://api.chatwork.test/v2/rooms/1/messages',
            method: 'POST',
            headers: { 'X-ChatWorkToken': 'tok' },
            body: new URLSearchParams({ body: text }).toString(),
            contentType: form,
            signed: false,
          },
        ],
      ],
      [
        'InCircle: form token_id, ticketno, action=1, text',
        { Type: 8, Address: 'https://incircle.test/api', Token: 'T42:secret' },
        [
          {
            kind: 'http',
            type: 8,
            url: 'https://incircle.test/api',
            method: 'POST',
            headers: {},
            body: `token_id=secret&ticketno=T42&action=1&text=${encodeURIComponent(text).replace(/%20/g, '+')}`,
            contentType: form,
            signed: false,
          },
        ],
      ],
      [
        'HttpClient stored without MethodType: GET, no body, signed',
        { Type: 9, Address: 'https://hook.test/in' },
        [
          {
            kind: 'http',
            type: 9,
            url: 'https://hook.test/in',
            method: 'GET',
            headers: {},
            body: '',
            contentType: json,
            signed: true,
          },
        ],
      ],
      [
        'HttpClient POST: the body alone, MediaType, Encoding and Headers',
        {
          Type: 9,
          Address: 'https://hook.test/in',
          MethodType: 2,
          MediaType: 'text/plain',
          Encoding: 'shift_jis',
          Headers: '{"X-App":"kiroku"}',
        },
        [
          {
            kind: 'http',
            type: 9,
            url: 'https://hook.test/in',
            method: 'POST',
            headers: { 'X-App': 'kiroku' },
            body: message.body,
            contentType: 'text/plain; charset=shift_jis',
            signed: true,
          },
        ],
      ],
      [
        'HttpClient PUT and DELETE',
        { Type: 9, Address: 'https://hook.test/in', MethodType: 3 },
        [
          {
            kind: 'http',
            type: 9,
            url: 'https://hook.test/in',
            method: 'PUT',
            headers: {},
            body: message.body,
            contentType: json,
            signed: true,
          },
        ],
      ],
      [
        'Mail: subject Prefix+title, the addresses split',
        { Type: 1, Address: 'a@x.test; [User2]', CcAddress: 'c@x.test', BccAddress: '' },
        [
          {
            kind: 'mail',
            type: 1,
            to: ['a@x.test', '[User2]'],
            cc: ['c@x.test'],
            bcc: [],
            subject: '[Shop]" Order 1 " has been updated.',
            body: message.body,
          },
        ],
      ],
      ['Mail without a To: nothing', { Type: 1, Address: ' ; ' }, []],
      ['Line: nothing (refused on save)', { Type: 4, Address: 'x', Token: 't' }, []],
    ])('%s', (_name, fields, expected) => {
      expect(noticesOf(notification(fields), message)).toEqual(expected);
    });

    it('Mail takes the resolved addresses over the stored ones', () => {
      const [notice] = noticesOf(notification({ Type: 1, Address: '[Manager]' }), {
        ...message,
        to: '[User2]',
      });
      expect(notice).toMatchObject({ kind: 'mail', to: ['[User2]'] });
    });
  });

  describe('addressList', () => {
    it.each([
      ['a@x.test,b@x.test', ['a@x.test', 'b@x.test']],
      ['a@x.test;\nb@x.test', ['a@x.test', 'b@x.test']],
      ['"Doe, J" <j@x.test>, k@x.test', ['"Doe, J" <j@x.test>', 'k@x.test']],
      ['', []],
    ])('%j → %j', (text, expected) => {
      expect(addressList(text)).toEqual(expected);
    });
  });
});
