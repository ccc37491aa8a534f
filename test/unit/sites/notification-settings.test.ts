import { describe, expect, it } from 'vitest';
import { notificationProblems, notificationsOf } from '../../../lib/sites/notification-settings';

const views = [{ Id: 3, Name: 'open' }];
const problemsOf = (entry: unknown) =>
  notificationProblems({ Views: views, Notifications: [entry] }, 'Results');
const hook = { Id: 1, Type: 9, Address: 'https://hook.test/in' };

describe('lib/sites/notification-settings', () => {
  describe('notificationProblems', () => {
    it.each<[string, unknown, string, string]>([
      ['an entry that is no object', 'x', 'Notifications[0]', 'must be an object'],
      ['no Id', { Type: 1 }, 'Notifications[0].Id', 'required: a whole number from 1'],
      [
        'an unknown Type',
        { Id: 1, Type: 11 },
        'Notifications[0].Type',
        '11 is no notification type (1 to 10)',
      ],
      [
        'Line',
        { Id: 1, Type: 4, Address: 'u', Token: 't' },
        'Notifications[0].Type',
        'Line (4) notifications cannot be sent by Kiroku; use Mail or a URL type',
      ],
      [
        'LineGroup',
        { Id: 1, Type: 5 },
        'Notifications[0].Type',
        'LineGroup (5) notifications cannot be sent',
      ],
      [
        'LineWorks',
        { Id: 1, Type: 10 },
        'Notifications[0].Type',
        'LineWorks (10) notifications cannot be sent',
      ],
      [
        'a URL type without an Address',
        { Id: 1, Type: 2 },
        'Notifications[0].Address',
        'Slack posts to a URL: "" is no http(s) URL',
      ],
      [
        'a URL type with another scheme',
        { Id: 1, Type: 9, Address: 'ftp://x.test/' },
        'Notifications[0].Address',
        'HttpClient posts to a URL: "ftp://x.test/" is no http(s) URL',
      ],
      [
        'Teams with one bad URL of two',
        { Id: 1, Type: 6, Address: 'https://a.test/, nope' },
        'Notifications[0].Address',
        'Teams posts to a URL: "nope" is no http(s) URL',
      ],
      [
        'InCircle without ticketno:token_id',
        { Id: 1, Type: 8, Address: 'https://a.test/', Token: 'x' },
        'Notifications[0].Token',
        'InCircle needs the Token as ticketno:token_id',
      ],
      [
        'bad Headers JSON',
        { ...hook, Headers: '{"X-A":' },
        'Notifications[0].Headers',
        'must be the text of a JSON object of header names and text values',
      ],
      [
        'Headers that are a list',
        { ...hook, Headers: '["a"]' },
        'Notifications[0].Headers',
        'must be the text',
      ],
      [
        'an unknown MethodType',
        { ...hook, MethodType: 7 },
        'Notifications[0].MethodType',
        '7 is no method (Get 1, Post 2, Put 3, Delete 4)',
      ],
      [
        'an Encoding iconv-lite cannot write',
        { ...hook, Encoding: 'klingon-8' },
        'Notifications[0].Encoding',
        '"klingon-8" is no encoding Kiroku can write',
      ],
      [
        'a monitored column that does not exist',
        { ...hook, MonitorChangesColumns: ['ClassA', 'NoSuch'] },
        'Notifications[0].MonitorChangesColumns',
        'Results has no column NoSuch',
      ],
      [
        'a BeforeCondition naming no view',
        { ...hook, BeforeCondition: 4 },
        'Notifications[0].BeforeCondition',
        'no View of the site has the Id 4',
      ],
      [
        'an AfterCondition naming no view',
        { ...hook, AfterCondition: 5 },
        'Notifications[0].AfterCondition',
        'no View of the site has the Id 5',
      ],
      [
        'an unknown Expression',
        { ...hook, Expression: 3 },
        'Notifications[0].Expression',
        'neither Or (1) nor And (2)',
      ],
      ['a text field of another type', { ...hook, Prefix: 5 }, 'Notifications[0].Prefix', 'must be text'],
      [
        'a flag of another type',
        { ...hook, Disabled: 'yes' },
        'Notifications[0].Disabled',
        'must be true or false',
      ],
    ])('refuses %s', (_name, entry, property, problem) => {
      const problems = problemsOf(entry);
      expect(problems).toHaveLength(1);
      expect(problems[0]?.property).toBe(`SiteSettings.${property}`);
      expect(problems[0]?.problem).toContain(problem);
    });

    it('refuses a repeated Id', () => {
      const problems = notificationProblems({ Notifications: [hook, hook] }, 'Results');
      expect(problems).toEqual([
        { property: 'SiteSettings.Notifications[1].Id', problem: '1 is the Id of an earlier notification' },
      ]);
    });

    it.each<[string, unknown]>([
      ['a Mail notification', { Id: 1, Type: 1, Address: '[RelatedUsers]', Prefix: '[x]' }],
      ['a Mail notification without an Address (sends nothing)', { Id: 1, Type: 1 }],
      [
        'an HttpClient with every field',
        {
          ...hook,
          MethodType: 2,
          Encoding: 'Shift_JIS',
          MediaType: 'application/json',
          Headers: '{"Authorization":"Bearer x"}',
          UseCustomFormat: true,
          Format: '{"a":"[Title]"}',
          MonitorChangesColumns: ['Title', 'Status'],
          BeforeCondition: 3,
          AfterCondition: 0,
          Expression: 1,
          AfterCreate: false,
          Disabled: true,
        },
      ],
      [
        'names in another case, numbers as text',
        { id: '2', type: '2', address: 'https://hooks.slack.test/x' },
      ],
    ])('takes %s', (_name, entry) => {
      expect(problemsOf(entry)).toEqual([]);
    });
  });

  describe('notificationsOf', () => {
    it('reads entries under their canonical names, numbers and flags typed', () => {
      expect(
        notificationsOf({ notifications: [{ id: '2', TYPE: 9, disabled: 1, Unknown: 'x' }, 'skipped'] }),
      ).toEqual([{ Id: 2, Type: 9, Disabled: true }]);
    });
  });
});
