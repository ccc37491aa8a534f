import { describe, expect, it } from 'vitest';
import { OutOfBoundsError } from '../../../lib/errors';
import { parseJsonText } from '../../../lib/http/json-text';

describe('parseJsonText: numbers a float cannot keep', () => {
  it.each([
    ['top level', '9007199254740993'],
    ['a property', '{"NumA":9007199254740993}'],
    ['after white space and a line break', '{"NumA": \n\t1e400}'],
    ['in an array, first', '{"a":[1e-400]}'],
    ['in an array, later', '{"a":[1, -9007199254740993]}'],
    ['a fraction of many digits', '{"a":0.1000000000000000000001}'],
    ['beside a key that looks like numbers', '{"ApiKey":"0a3e7f1234567890123456789","NumA":1e400}'],
  ])('refuses one %s, naming it', (_where, text) => {
    const refusal = (() => {
      try {
        parseJsonText(text);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(OutOfBoundsError);
    expect((refusal as OutOfBoundsError).reason).toMatch(/cannot be kept exactly$/);
  });

  it.each([
    ['hex digits with an e inside a string', '{"ApiKey":"93e71c2e5d8a1234567890123456789012e4"}'],
    ['a string that looks like a number', '{"Body":"x:1e400, [9007199254740993"}'],
    ['numbers a float keeps', '{"a":[1.5e3, 99999999999999, -0, 0.0001]}'],
  ])('takes %s', (_where, text) => {
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });
});
