import { describe, expect, it, vi } from 'vitest';

// The UI's language comes from the browser; these tests read the English labels.
vi.hoisted(() =>
  Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-US' }, configurable: true }),
);

const { definedColumn, editorTabs, setProperty, withDesign } = await import('../../../web/app/design');

type Value = string | boolean;

describe('web/app/design', () => {
  describe('setProperty', () => {
    it.each<[string, string, 'Issues' | 'Results', Value, Record<string, unknown>]>([
      ['LabelText', 'ClassA', 'Results', 'Region', { LabelText: 'Region' }],
      ['LabelText', 'ClassA', 'Results', '', {}],
      ['LabelText', 'ClassA', 'Results', 'ClassA', {}],
      ['DefaultInput', 'Status', 'Results', '', { DefaultInput: '' }],
      ['DefaultInput', 'Status', 'Results', '100', {}],
      ['DefaultInput', 'ClassA', 'Results', '', {}],
      ['Min', 'NumA', 'Results', '0', { Min: 0 }],
      ['Min', 'NumA', 'Results', '', {}],
      ['Min', 'NumA', 'Results', '-999999999999999', {}],
      ['DecimalPlaces', 'NumA', 'Results', '0', {}],
      ['DecimalPlaces', 'NumA', 'Results', '2', { DecimalPlaces: 2 }],
      ['Unit', 'WorkValue', 'Issues', 'h', {}],
      ['Unit', 'NumA', 'Results', 'kg', { Unit: 'kg' }],
      ['ValidateRequired', 'Title', 'Results', true, {}],
      ['ValidateRequired', 'Title', 'Results', false, { ValidateRequired: false }],
      ['ValidateRequired', 'Status', 'Issues', true, {}],
      ['ValidateRequired', 'Status', 'Results', true, { ValidateRequired: true }],
      ['EditorReadOnly', 'ClassA', 'Results', true, { EditorReadOnly: true }],
      ['EditorReadOnly', 'ResultId', 'Results', true, {}],
      ['NoDuplication', 'ClassA', 'Results', false, {}],
      ['RoundingType', 'NumA', 'Results', '10', {}],
      ['RoundingType', 'NumA', 'Results', '50', { RoundingType: 50 }],
      ['EditorFormat', 'DateA', 'Results', 'Ymd', {}],
      ['EditorFormat', 'DateA', 'Results', 'Ymdhm', { EditorFormat: 'Ymdhm' }],
    ])('%s of %s (%s) set to %j gives %j', (property, columnName, type, value, expected) => {
      const defined = definedColumn(type, columnName);
      if (!defined) throw new Error(`no ${columnName}`);
      const entry = setProperty({ ColumnName: columnName }, defined, property as never, value);
      expect(entry).toEqual({ ColumnName: columnName, ...expected });
    });

    it('keeps the properties it does not edit, and removes one set back to the default', () => {
      const defined = definedColumn('Results', 'ClassA');
      if (!defined) throw new Error('no ClassA');
      const entry = { ColumnName: 'ClassA', FieldCss: 'field-wide', LabelText: 'Region' };
      expect(setProperty(entry, defined, 'LabelText', '')).toEqual({
        ColumnName: 'ClassA',
        FieldCss: 'field-wide',
      });
    });
  });

  describe('editorTabs', () => {
    it.each<[Record<string, unknown>, string[][]]>([
      [{}, [['ResultId', 'Ver', 'Title', 'Body', 'Status', 'Manager', 'Owner', 'Comments']]],
      [{ EditorColumns: ['Title', 'ClassA'] }, [['Title', 'ClassA']]],
      [
        { EditorColumns: ['Title'], EditorColumnHash: { General: ['Title', 'ClassB'], '_Tab-1': ['NumA'] } },
        [['Title', 'ClassB'], ['NumA']],
      ],
    ])('reads %j', (settings, tabs) => {
      expect(editorTabs(settings, 'Results').map((tab) => tab.names)).toEqual(tabs);
    });
  });

  describe('withDesign', () => {
    const defaults = {
      general: ['ResultId', 'Ver', 'Title', 'Body', 'Status', 'Manager', 'Owner', 'Comments'],
      grid: ['ResultId', 'TitleBody', 'Comments', 'Status', 'Manager', 'Owner', 'Updator', 'UpdatedTime'],
      sections: [],
    };

    it('writes only what differs from the defaults, and drops entries left with a ColumnName only', () => {
      const written = withDesign({ Other: 1 }, 'Results', {
        ...defaults,
        entries: [{ ColumnName: 'ClassA' }, { ColumnName: 'ClassB', LabelText: 'B' }],
      });
      expect(written).toEqual({ Other: 1, Columns: [{ ColumnName: 'ClassB', LabelText: 'B' }] });
    });

    it('migrates a legacy EditorColumns list into EditorColumnHash, keeping the other tabs', () => {
      const written = withDesign(
        { EditorColumns: ['Title'], EditorColumnHash: { '_Tab-1': ['NumA', '_Section-2'] } },
        'Results',
        {
          ...defaults,
          general: ['Title', '_Section-1', 'ClassA'],
          entries: [],
          sections: [{ Id: 1 }, { Id: 2 }, { Id: 3 }],
        },
      );
      expect(written).toEqual({
        Columns: [],
        EditorColumnHash: { '_Tab-1': ['NumA', '_Section-2'], General: ['Title', '_Section-1', 'ClassA'] },
        Sections: [{ Id: 1 }, { Id: 2 }],
      });
    });

    it('writes a changed grid list', () => {
      const grid = ['ResultId', 'Title', 'NumA'];
      expect(withDesign({}, 'Results', { ...defaults, grid, entries: [] }).GridColumns).toEqual(grid);
    });
  });
});
