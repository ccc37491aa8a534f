import { describe, expect, it } from 'vitest';
import { QueryStrings } from '../../lib/query-strings';

// CONTRACT section 8, web-api.txt 4.6 and reference/pleasanter-behaviour.md 6.1, row by row.
describe('QueryStrings', () => {
  describe('data', () => {
    it.each([
      ['plain value', 'a=1', 'a', '1'],
      ['key without case', 'Key=v', 'kEY', 'v'],
      ['first of keys differing in case', 'A=1&a=2', 'a', '1'],
      ['first of keys differing in case, read upper', 'A=1&a=2', 'A', '1'],
      ['last value of a repeated exact key', 'k=one&k=two', 'k', 'two'],
      ['repeated exact key keeps its first place', 'k=one&K=mid&k=two', 'K', 'two'],
      ['text after a second = is dropped', 'a=b=c', 'a', 'b'],
      ['+ is a space', 'q=a+b', 'q', 'a b'],
      ['%20 is a space', 'q=a%20b', 'q', 'a b'],
      ['UTF-8 escapes', 'name=%E6%9D%B1%E4%BA%AC', 'name', '東京'],
      ['escaped key', 'na%C3%AFve=x', 'NAÏVE', 'x'],
      ['raw non-ASCII', 'q=東京', 'q', '東京'],
      ['%2B is a plus', 'q=1%2B1', 'q', '1+1'],
      ['%26 stays inside the value', 'q=a%26b&r=1', 'q', 'a&b'],
      ['a bad escape stays as written', 'q=100%&r=%zz', 'q', '100%'],
      ['a bad escape beside a good one', 'q=%zz%41', 'q', '%zzA'],
      ['missing key', 'a=1', 'b', ''],
      ['key without =', 'flag&a=1', 'flag', ''],
      ['key with empty value', 'a=', 'a', ''],
      ['empty query', '', 'a', ''],
      ['empty key', '=v', '', 'v'],
      ['leading ? ignored', '?a=1', 'a', '1'],
      ['empty pieces skipped', '&&a=1&', 'a', '1'],
    ])('%s: %j, Data(%j) is %j', (_, raw, key, expected) => {
      expect(new QueryStrings(raw).data(key)).toBe(expected);
    });
  });

  describe('bool', () => {
    it.each([
      ['1', true],
      ['-1', true],
      ['true', true],
      ['TRUE', true],
      ['True', true],
      ['on', true],
      ['ON', true],
      ['%20on%20', true],
      ['+true+', true],
      ['%09-1', true],
      ['0', false],
      ['yes', false],
      ['false', false],
      ['2', false],
      ['t', false],
      ['', false],
      ['1.0', false],
    ])('b=%s is %s', (value, expected) => {
      expect(new QueryStrings(`b=${value}`).bool('b')).toBe(expected);
    });

    it('is false for a missing or valueless key', () => {
      expect(new QueryStrings('x=1').bool('b')).toBe(false);
      expect(new QueryStrings('b').bool('b')).toBe(false);
    });
  });

  describe('int', () => {
    it.each([
      ['42', 42],
      ['-42', -42],
      ['+42', 42],
      ['007', 7],
      ['%20%2042%20', 42],
      ['+42+', 42],
      ['%0942%0A', 42],
      ['2147483647', 2147483647],
      ['-2147483648', -2147483648],
      ['2147483648', 0],
      ['-2147483649', 0],
      ['1.5', 0],
      ['1e3', 0],
      ['0x10', 0],
      ['abc', 0],
      ['4 2', 0],
      ['--1', 0],
      ['%2B-1', 0],
      ['-', 0],
      ['', 0],
      ['１２', 0],
    ])('i=%s is %d', (value, expected) => {
      expect(new QueryStrings(`i=${value}`).int('i')).toBe(expected);
    });
  });

  describe('long', () => {
    it.each([
      ['42', 42],
      ['-42', -42],
      ['2147483648', 2147483648],
      ['9007199254740991', 9007199254740991],
      ['-9007199254740991', -9007199254740991],
      ['9007199254740993', 9007199254740993n],
      ['9223372036854775807', 9223372036854775807n],
      ['-9223372036854775808', -9223372036854775808n],
      ['9223372036854775808', 0],
      ['-9223372036854775809', 0],
      ['%2012%20', 12],
      ['12.0', 0],
      ['x', 0],
      ['', 0],
    ])('l=%s is %s', (value, expected) => {
      expect(new QueryStrings(`l=${value}`).long('l')).toBe(expected);
    });
  });
});
