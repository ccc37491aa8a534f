import { describe, expect, it } from 'vitest';
import { type ReferenceType, STATUS_CHOICES } from '../../../lib/columns/definitions';
import { defaultEditorColumns } from '../../../lib/columns/layouts';
import { linkedSiteIds, normalizeSiteSettings } from '../../../lib/columns/site-settings';
import { migrateSiteSettings } from '../../../lib/columns/site-settings-migration';

type Settings = Record<string, unknown>;

const normalized = (
  settings: Settings,
  referenceType: ReferenceType = 'Results',
  loads: (siteId: number) => boolean = () => false,
) => normalizeSiteSettings(settings, { referenceType, siteId: 42, loads });
const stored = (settings: Settings, referenceType: ReferenceType = 'Results') => {
  const result = normalized(settings, referenceType);
  expect(result.problems).toEqual([]);
  return result.settings;
};
const head = (referenceType: ReferenceType) => ({ Version: 1.017, ReferenceType: referenceType, SiteId: 42 });

describe('columns/site-settings', () => {
  describe('migrateSiteSettings', () => {
    it.each<[string, number, Settings, Settings]>([
      [
        'EditorColumns at 1.011 become the General tab',
        1.011,
        { EditorColumns: ['ResultId', 'Title', 'ClassA', 'Comments'] },
        { EditorColumnHash: { General: ['ResultId', 'Title', 'ClassA', 'Comments'] } },
      ],
      [
        'EditorColumns at 1.009 gain Comments (1.010) before they move',
        1.009,
        { EditorColumns: ['ResultId', 'Title'] },
        { EditorColumnHash: { General: ['ResultId', 'Title', 'Comments'] }, ViewLatestId: 0 },
      ],
      [
        'a Section text opens a new section before its column, and leaves the entry',
        1.011,
        {
          EditorColumns: ['Title', 'ClassA', 'ClassB', 'NumA'],
          Columns: [
            { ColumnName: 'ClassA', Section: 'Order' },
            { ColumnName: 'ClassB', Section: 'Order', LabelText: 'Item' },
            { ColumnName: 'NumA', Section: '' },
          ],
        },
        {
          EditorColumnHash: {
            General: ['Title', '_Section-1', 'ClassA', '_Section-2', 'ClassB', 'NumA'],
          },
          Sections: [
            { Id: 1, LabelText: 'Order' },
            { Id: 2, LabelText: 'Order' },
          ],
          SectionLatestId: 2,
          Columns: [
            { ColumnName: 'ClassA' },
            { ColumnName: 'ClassB', LabelText: 'Item' },
            { ColumnName: 'NumA' },
          ],
        },
      ],
      [
        'no EditorColumns leave the default editor',
        1.011,
        {},
        { EditorColumnHash: { General: [...defaultEditorColumns('Results')] } },
      ],
      [
        'ViewLatestId at 1.009 is the highest view id',
        1.009,
        { Views: [{ Id: 3 }, { Id: 7 }], ViewLatestId: 1 },
        {
          Views: [{ Id: 3 }, { Id: 7 }],
          ViewLatestId: 7,
          EditorColumnHash: { General: [...defaultEditorColumns('Results')] },
        },
      ],
      [
        'a view CalendarColumn becomes CalendarFromTo and EditInDialog a Dialog editor (1.013, 1.016)',
        1.011,
        { Views: [{ Id: 1, CalendarColumn: 'DateA' }], EditInDialog: true },
        {
          Views: [{ Id: 1, CalendarFromTo: 'DateA' }],
          GridEditorType: 20,
          EditorColumnHash: { General: [...defaultEditorColumns('Results')] },
        },
      ],
    ])('%s', (_name, version, given, expected) => {
      const migrated = migrateSiteSettings(given, version, 'Results');
      expect(migrated).toMatchObject(expected);
      expect(migrated).not.toHaveProperty('EditorColumns');
    });

    it('moves the single style and script texts into their lists (1.012)', () => {
      const migrated = migrateSiteSettings({ NewStyle: 'a{}', GridScript: 'x()' }, 1.011, 'Results');
      expect(migrated.Styles).toEqual([{ Id: 1, Title: 'Style1', New: true, Body: 'a{}' }]);
      expect(migrated.Scripts).toEqual([{ Id: 1, Title: 'Script1', Index: true, Body: 'x()' }]);
      expect(migrated).not.toHaveProperty('NewStyle');
    });

    it('leaves settings of the current version alone', () => {
      const given = { Version: 1.017, EditorColumns: ['Title'] };
      expect(migrateSiteSettings(given, 1.017, 'Results')).toBe(given);
    });
  });

  describe('normalizeSiteSettings: the diff', () => {
    it.each<[string, Settings, Settings | undefined]>([
      ['a label of the definition in both languages', { ColumnName: 'ResultId', LabelText: 'ID' }, undefined],
      [
        'a label equal to the definition in one language only',
        { ColumnName: 'Title', LabelText: 'タイトル' },
        { ColumnName: 'Title', LabelText: 'タイトル' },
      ],
      [
        'the default Status choices, CRLF',
        { ColumnName: 'Status', ChoicesText: STATUS_CHOICES.replaceAll('\n', '\r\n') },
        undefined,
      ],
      ['DefaultInput "" of a column without default', { ColumnName: 'ClassA', DefaultInput: '' }, undefined],
      [
        'DefaultInput "" turning a default off',
        { ColumnName: 'Status', DefaultInput: '' },
        { ColumnName: 'Status', DefaultInput: '' },
      ],
      ['ValidateRequired as the definition', { ColumnName: 'Title', ValidateRequired: true }, undefined],
      [
        'ValidateRequired against the definition',
        { ColumnName: 'Title', ValidateRequired: false },
        { ColumnName: 'Title', ValidateRequired: false },
      ],
      [
        'the definition Min, Max, Step and DecimalPlaces',
        { ColumnName: 'NumA', Min: -999999999999999, Step: 1, DecimalPlaces: 0 },
        undefined,
      ],
      [
        'a numeric string, written as its number',
        { ColumnName: 'NumA', DecimalPlaces: '2', Max: 100 },
        { ColumnName: 'NumA', DecimalPlaces: 2, Max: 100 },
      ],
      ['MaxLength 0', { ColumnName: 'ClassA', MaxLength: 0 }, undefined],
      ['false flags', { ColumnName: 'ClassA', Nullable: false, Hide: false, AllowImage: true }, undefined],
      ['field-normal', { ColumnName: 'ClassA', FieldCss: 'field-normal' }, undefined],
      [
        'screen-only properties, verbatim',
        { ColumnName: 'NumA', Format: 'C', ControlType: 'Spinner', LabelText: 'Price' },
        { ColumnName: 'NumA', Format: 'C', ControlType: 'Spinner', LabelText: 'Price' },
      ],
      [
        'an EditorFormat the model does not read, verbatim',
        { ColumnName: 'DateA', EditorFormat: 'Ymdhm' },
        { ColumnName: 'DateA', EditorFormat: 'Ymdhm' },
      ],
      ['a column the table does not have', { ColumnName: 'StartTime', LabelText: 'Begin' }, undefined],
      ['null values', { ColumnName: 'ClassA', LabelText: null, Unit: null }, undefined],
    ])('%s', (_name, entry, expected) => {
      const settings = stored({ Columns: [entry] });
      expect(settings.Columns).toEqual(expected ? [expected] : undefined);
    });

    it('always writes Version, ReferenceType and SiteId, and drops lists equal to their defaults', () => {
      const settings = stored(
        {
          Version: 1.017,
          ReferenceType: 'Issues',
          SiteId: 7,
          GridColumns: [
            'ResultId',
            'TitleBody',
            'Comments',
            'Status',
            'Manager',
            'Owner',
            'Updator',
            'UpdatedTime',
          ],
          EditorColumnHash: { General: [...defaultEditorColumns('Results')], '_Tab-1': [] },
          TitleColumns: ['Title'],
          TitleSeparator: ')',
          Aggregations: [],
          ViewLatestId: 0,
          GuideExpand: '0',
        },
        'Results',
      );
      expect(settings).toEqual({ ...head('Results'), GuideExpand: '0' });
    });

    it('keeps the first of two entries of one column', () => {
      const settings = stored({
        Columns: [
          { ColumnName: 'ClassA', LabelText: 'First' },
          { ColumnName: 'ClassA', LabelText: 'Second' },
        ],
      });
      expect(settings.Columns).toEqual([{ ColumnName: 'ClassA', LabelText: 'First' }]);
    });

    it('is stable: normalizing what it wrote gives the same', () => {
      const once = stored({
        Version: 1.011,
        EditorColumns: ['Title', 'ClassA'],
        Columns: [{ ColumnName: 'ClassA', Section: 'S', LabelText: 'A' }],
      });
      expect(stored(once)).toEqual(once);
    });

    it.each<[string, Settings, string]>([
      [
        'DecimalPlaces as text',
        { Columns: [{ ColumnName: 'NumA', DecimalPlaces: 'two' }] },
        'SiteSettings.Columns[0].DecimalPlaces',
      ],
      [
        'ValidateRequired as a number',
        { Columns: [{ ColumnName: 'ClassA', ValidateRequired: 1 }] },
        'SiteSettings.Columns[0].ValidateRequired',
      ],
      [
        'LabelText as an object',
        { Columns: [{ ColumnName: 'ClassA', LabelText: {} }] },
        'SiteSettings.Columns[0].LabelText',
      ],
      [
        'an entry without ColumnName',
        { Columns: [{ LabelText: 'x' }] },
        'SiteSettings.Columns[0].ColumnName',
      ],
      ['Columns as an object', { Columns: { ColumnName: 'ClassA' } }, 'SiteSettings.Columns'],
      ['GridColumns of numbers', { GridColumns: [1, 2] }, 'SiteSettings.GridColumns'],
      [
        'an EditorColumnHash tab as text',
        { EditorColumnHash: { General: 'Title' } },
        'SiteSettings.EditorColumnHash',
      ],
      ['a Version before 1.009', { Version: 1.004 }, 'SiteSettings.Version'],
      ['a Version that is no number', { Version: 'new' }, 'SiteSettings.Version'],
    ])('refuses %s, naming it', (_name, settings, property) => {
      const { problems } = normalized(settings);
      expect(problems.map((problem) => problem.property)).toContain(property);
    });

    it('takes EditorColumns without a Version as the legacy form, migrated', () => {
      const settings = stored({ EditorColumns: ['Title', 'ClassA'] });
      expect(settings).toMatchObject({
        EditorColumnHash: { General: ['Title', 'ClassA'] },
      });
      expect(settings).not.toHaveProperty('EditorColumns');
    });

    it('takes known names without case', () => {
      const settings = stored({
        gridcolumns: ['Title'],
        columns: [{ columnname: 'ClassA', labeltext: 'A' }],
      });
      expect(settings).toMatchObject({
        GridColumns: ['Title'],
        Columns: [{ ColumnName: 'ClassA', LabelText: 'A' }],
      });
    });
  });

  describe('normalizeSiteSettings: Links', () => {
    const choices = (ChoicesText: string, extra: Settings = {}) => ({
      Columns: [{ ColumnName: 'ClassA', ChoicesText }],
      ...extra,
    });

    it('adds a link for a [[siteId]] line whose site loads, with its options, and flags the column', () => {
      const { settings } = normalized(choices('[[7,NoAddButton]]\n[[8]]'), 'Results', (id) => id === 7);
      expect(settings.Links).toEqual([{ ColumnName: 'ClassA', SiteId: 7, NoAddButton: true }]);
      expect(settings.Columns).toEqual([
        { ColumnName: 'ClassA', ChoicesText: '[[7,NoAddButton]]\n[[8]]', Link: true },
      ]);
    });

    it('makes the links of a column again from its ChoicesText', () => {
      const given = choices('[[Users]]', {
        Links: [
          { ColumnName: 'ClassA', SiteId: 7 },
          { ColumnName: 'ClassB', SiteId: 9 },
        ],
      });
      expect(normalized(given, 'Results', () => true).settings.Links).toEqual([
        { ColumnName: 'ClassB', SiteId: 9 },
      ]);
    });

    it('keeps the JSON form with its settings', () => {
      const json = JSON.stringify([{ SiteId: 7, LinkActions: [{ Type: 'DeleteWithLinks' }], Priority: 0 }]);
      const { settings } = normalized(choices(json), 'Results', () => false);
      expect(settings.Links).toEqual([
        { ColumnName: 'ClassA', SiteId: 7, LinkActions: [{ Type: 'DeleteWithLinks' }], JsonFormat: true },
      ]);
    });

    it('names the sites a [[siteId]] line points at', () => {
      expect(
        linkedSiteIds([
          { ChoicesText: '[[7]]\n[[Depts]]\n[[8,AddSource]]' },
          { ChoicesText: '[{"SiteId":9}]' },
        ]),
      ).toEqual([7, 8]);
    });
  });
});
