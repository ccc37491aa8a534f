import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../../lib/columns/model';
import {
  characterCount,
  matchesPattern,
  REGEX_TIME_LIMIT_MS,
  regexMessage,
  validateValue,
} from '../../../lib/columns/validation';

const columnOf = (name: string, entry: Record<string, unknown>) => {
  const column = columnsOf('Results', [{ ColumnName: name, ...entry }], 'en').byName.get(name);
  if (!column) throw new Error(name);
  return column;
};

describe('columns/validation', () => {
  describe('validateValue', () => {
    const short = { MaxLength: 3 };
    const code = { ServerRegexValidation: '^[A-Z]{2}\\d+$', RegexValidationMessage: 'Use a code like AB12.' };
    it.each<[string, Record<string, unknown>, string, string | undefined]>([
      ['ClassA', short, 'abc', undefined],
      ['ClassA', short, 'abcd', 'tooLong 3'],
      // Code points: three emoji are three characters (six UTF-16 units).
      ['ClassA', short, '😀😀😀', undefined],
      ['ClassA', short, '日本語', undefined],
      ['ClassA', short, '日本語で', 'tooLong 3'],
      // Empty values are not checked.
      ['ClassA', { ...short, ...code }, '', undefined],
      ['ClassA', code, 'AB12', undefined],
      ['ClassA', code, 'ab12', 'notMatch Use a code like AB12.'],
      [
        'ClassA',
        { ServerRegexValidation: '^\\d+$' },
        'x',
        'notMatch ClassA does not match the pattern of the column.',
      ],
      // MaxLength first, as the reference checks it first.
      ['ClassA', { ...code, MaxLength: 2 }, 'AB12', 'tooLong 2'],
      ['Title', { MaxLength: 5 }, 'Longer', 'tooLong 5'],
      // A pattern only Unicode JavaScript reads (\p{...}), as .NET reads it.
      ['ClassA', { ServerRegexValidation: '^\\p{Lu}+$' }, 'ABC', undefined],
      [
        'ClassA',
        { ServerRegexValidation: '^\\p{Lu}+$' },
        'abc',
        'notMatch ClassA does not match the pattern of the column.',
      ],
      // A pattern nothing compiles fails the match, as the reference's ArgumentException does.
      [
        'ClassA',
        { ServerRegexValidation: '([a-z' },
        'abc',
        'notMatch ClassA does not match the pattern of the column.',
      ],
    ])('%s %j with %j: %s', (name, entry, value, expected) => {
      const failure = validateValue(columnOf(name, entry), value);
      const shown =
        failure?.kind === 'tooLong'
          ? `tooLong ${failure.maxLength}`
          : failure?.kind === 'notMatch'
            ? `notMatch ${failure.message}`
            : failure?.kind;
      expect(shown).toBe(expected);
    });

    it('stops a pattern that backtracks without end, within its time limit', () => {
      const started = performance.now();
      const failure = validateValue(
        columnOf('ClassA', { ServerRegexValidation: '^(a+)+$' }),
        `${'a'.repeat(40)}b`,
      );
      expect(failure?.kind).toBe('regexTimeout');
      expect(performance.now() - started).toBeLessThan(REGEX_TIME_LIMIT_MS * 5);
    });
  });

  it.each([
    ['^a', 'abc', true],
    ['^b', 'abc', false],
    ['(', 'abc', null],
  ])('matchesPattern(%j, %j) is %s', (pattern, value, expected) => {
    expect(matchesPattern(pattern, value)).toBe(expected);
  });

  it.each([
    ['', 0],
    ['abc', 3],
    ['👨‍👩‍👧', 5],
    ['𠮷野家', 3],
  ])('counts %j as %d characters', (text, count) => expect(characterCount(text)).toBe(count));

  it('answers the column message, or names the column when it has none', () => {
    expect(regexMessage(columnOf('ClassA', { RegexValidationMessage: 'Bad.' }))).toBe('Bad.');
    expect(regexMessage(columnOf('ClassA', { LabelText: 'Code', RegexValidationMessage: '' }))).toBe(
      'Code does not match the pattern of the column.',
    );
  });
});
