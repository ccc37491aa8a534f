import { describe, expect, it } from 'vitest';
import type { User } from '../../../lib/accounts/model';
import {
  type AddressDirectory,
  expandEntries,
  parseAddressEntry,
  parseAddressLists,
  splitAddressList,
} from '../../../lib/mail/addresses';

const user = (userId: number, mailAddresses: string[], extra: Partial<User> = {}): User => ({
  userId,
  tenantId: 1,
  loginId: `u${userId}`,
  name: `User ${userId}`,
  tenantManager: false,
  disabled: false,
  mailAddresses,
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});

describe('lib/mail/addresses', () => {
  describe('splitAddressList', () => {
    it.each([
      ['a@example.com', ['a@example.com']],
      [
        'a@example.com, b@example.com; c@example.com\nd@example.com\r\ne@example.com',
        ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'],
      ],
      [
        '"Yamada, Taro" <taro@example.com>; x@example.com',
        ['"Yamada, Taro" <taro@example.com>', 'x@example.com'],
      ],
      [' ; ,\n', []],
      ['[User1],[Group2]', ['[User1]', '[Group2]']],
    ])('splits %j', (text, expected) => {
      expect(splitAddressList(text)).toEqual(expected);
    });
  });

  describe('parseAddressEntry', () => {
    it.each([
      ['taro@example.com', { kind: 'address', address: 'taro@example.com' }],
      ['Taro <taro@example.com>', { kind: 'address', name: 'Taro', address: 'taro@example.com' }],
      ['"山田 太郎" <taro@example.com>', { kind: 'address', name: '山田 太郎', address: 'taro@example.com' }],
      ['first.last+tag@sub.example.co.jp', { kind: 'address', address: 'first.last+tag@sub.example.co.jp' }],
      ['[User12]', { kind: 'token', of: 'User', id: 12 }],
      ['[Group3]', { kind: 'token', of: 'Group', id: 3 }],
      ['[Dept4]', { kind: 'token', of: 'Dept', id: 4 }],
    ])('reads %j', (entry, expected) => {
      expect(parseAddressEntry(entry)).toEqual(expected);
    });

    it.each([
      'not-an-address',
      'a@@example.com',
      'a@example..com',
      '.a@example.com',
      'a b@example.com',
      'Taro <>',
      '[Users1]',
      `${'a'.repeat(250)}@example.com`,
    ])('refuses %j, naming it', (entry) => {
      expect(() => parseAddressEntry(entry, 'To')).toThrow(`Invalid email address.[${entry}]`);
    });
  });

  describe('expandEntries', () => {
    const directory: AddressDirectory = {
      user: async (id) => (id === 1 ? user(1, ['one@example.com', 'uno@example.com']) : undefined),
      groupMembers: async (id) =>
        id === 2 ? [user(1, ['one@example.com']), user(3, ['three@example.com']), user(4, [])] : [],
      deptMembers: async (id) =>
        id === 5 ? [user(6, ['six@example.com']), user(7, ['off@example.com'], { disabled: true })] : [],
    };

    it('gives the addresses of enabled members, each once, named after their user', async () => {
      const entries = parseAddressLists(['[User1], [Group2]', 'ONE@example.com; [Dept5]; [User9]; [Group8]']);
      expect(await expandEntries(entries, directory)).toEqual([
        { name: 'User 1', address: 'one@example.com' },
        { name: 'User 1', address: 'uno@example.com' },
        { name: 'User 3', address: 'three@example.com' },
        { name: 'User 6', address: 'six@example.com' },
      ]);
    });
  });
});
