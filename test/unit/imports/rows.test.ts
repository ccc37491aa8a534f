import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../../lib/columns/model';
import { importColumns, readRow } from '../../../lib/imports/rows';

const context = { zone: 'Asia/Tokyo', userIds: new Map<string, number>() };
const columns = columnsOf(
  'Issues',
  [
    { ColumnName: 'ClassA', LabelText: 'Color', ChoicesText: '1,Red\n2,Blue' },
    { ColumnName: 'ClassB', LabelText: 'Tags', ChoicesText: 'a,Alpha\nb,Beta', MultipleSelections: true },
  ],
  'en',
);

describe('lib/imports/rows', () => {
  describe('importColumns', () => {
    it('maps labels, flag columns and a repeated header to its last place; skips the rest', () => {
      const header = [
        'ID',
        'Title',
        'Unknown',
        'Attachments A',
        'Created by',
        'Color',
        'Tags[Alpha]',
        'Tags[b]',
        'Title',
      ];
      const mapped = importColumns(columns, header).map((c) => [c.index, c.column.columnName, c.flag]);
      expect(mapped).toEqual([
        [0, 'IssueId', undefined],
        [8, 'Title', undefined],
        [5, 'ClassA', undefined],
        [6, 'ClassB', 'a'],
        [7, 'ClassB', 'b'],
      ]);
    });
  });

  describe('readRow', () => {
    const mapped = importColumns(columns, [
      'ID',
      'Title',
      'Color',
      'Tags[Alpha]',
      'Tags[Beta]',
      'Completion',
      'Comments',
    ]);

    it('builds the write body: hashes by family, flags joined, the ID kept out', () => {
      const read = readRow(mapped, ['5', 'T', 'Blue', '1', '', '2026/03/01', 'note'], 1, context, 'IssueId');
      expect(read).toEqual({
        row: {
          row: 1,
          input: {
            Title: 'T',
            ClassHash: { ClassA: '2', ClassB: '["a"]' },
            CompletionTime: '2026-02-28T15:00:00.000Z',
          },
          comments: [{ body: 'note' }],
          key: '5',
        },
      });
    });

    it('names every invalid cell of the row', () => {
      const read = readRow(mapped, ['x', 'T', 'Blue', 'maybe', '', 'soon', ''], 4, context);
      expect(read).toEqual({
        errors: [
          { Row: 4, Column: 'ID', Message: '"x" is not an id' },
          { Row: 4, Column: 'Tags', Message: expect.stringContaining('"maybe" is not a check value') },
          { Row: 4, Column: 'Completion', Message: '"soon" is not a date' },
        ],
      });
    });
  });
});
