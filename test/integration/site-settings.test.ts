import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTemplate, poster, readTemplates, type TemplateFile } from '../../scripts/template-check';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** SiteSettings kept as the reference keeps them (CONTRACT 11), as a caller sees it over HTTP. */

let stack: Stack;
let admin: string;
let otherTenant: string;
const templates: TemplateFile[] = await readTemplates(
  fileURLToPath(new URL('../fixtures/site-templates', import.meta.url)),
);

const post = (path: string, body: object = {}) => call(stack.url, path, { ApiKey: admin, ...body });
const settingsOf = async (siteId: number, key = admin) => {
  const read = await call(stack.url, `/api/items/${siteId}/getsite`, { ApiKey: key });
  return (read.body.Response as { Data: { SiteSettings: Record<string, unknown> } }).Data.SiteSettings;
};
const results = (SiteSettings: object) =>
  createSite(stack.url, admin, 0, { ReferenceType: 'Results', SiteSettings });

beforeAll(async () => {
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  otherTenant = accounts.other.apiKey;
});
afterAll(() => stack.close());

describe('site settings', () => {
  describe("Kiroku's own templates", () => {
    it('carry what the reference templates use', () => {
      const text = JSON.stringify(templates.map((template) => template.siteSettings));
      for (const feature of [
        '"Version":1.009',
        '"Version":1.011',
        '"EditorColumns"',
        '"EditorColumnHash"',
        '"Section"',
      ]) {
        expect(text).toContain(feature);
      }
      for (const feature of [
        '[[Depts]]',
        '"Formulas"',
        '"TitleColumns"',
        '"DefaultInput":""',
        '"Aggregations"',
        '"Views"',
      ]) {
        expect(text).toContain(feature);
      }
    });

    it.each(templates.map((template) => [template.id, template] as const))(
      '%s: createsite keeps its design, and getsite → createsite → getsite is equal',
      async (_id, template) => {
        const outcome = await checkTemplate(poster(stack.url), admin, template);
        expect(outcome.reason).toBeUndefined();
        expect(outcome.accepted).toBe(true);
        expect(outcome.stored).toMatchObject({ Version: 1.017, ReferenceType: template.referenceType });
        expect(outcome.stored).not.toHaveProperty('EditorColumns');
      },
    );

    it('stores a 1.009 template in the reference form', async () => {
      const template = templates.find((each) => each.siteSettings.Version === 1.009) as TemplateFile;
      const siteId = await results(template.siteSettings);
      const stored = await settingsOf(siteId);
      expect(stored).toMatchObject({
        Version: 1.017,
        ReferenceType: 'Results',
        SiteId: siteId,
        ViewLatestId: 5,
      });
      const general = (stored.EditorColumnHash as { General: string[] }).General;
      expect(general).toEqual([
        ...[
          'ResultId',
          'Ver',
          'Title',
          '_Section-1',
          'ClassA',
          'ClassB',
          'DateA',
          'DateB',
          '_Section-2',
          'NumA',
        ],
        ...['NumB', 'NumC', 'CheckA', 'DescriptionA', 'Status', 'Owner', 'Comments'],
      ]);
      expect(stored.Sections).toEqual([
        { Id: 1, LabelText: '貸出情報' },
        { Id: 2, LabelText: '数量と金額' },
      ]);
      const columns = stored.Columns as Record<string, unknown>[];
      expect(columns.find((column) => column.ColumnName === 'Title')).toEqual({
        ColumnName: 'Title',
        LabelText: '備品名',
      });
      expect(columns.find((column) => column.ColumnName === 'ClassB')).not.toHaveProperty('FieldCss');
      // DefaultInput "" on a column without a default says nothing.
      expect(columns.find((column) => column.ColumnName === 'DateB')).toEqual({
        ColumnName: 'DateB',
        LabelText: '返却予定日',
      });
    });
  });

  describe('Links', () => {
    it('adds a link for a [[siteId]] choice whose site is in the tenant, none for another tenant', async () => {
      const parent = await results({});
      const foreign = await createSite(stack.url, otherTenant, 0, { ReferenceType: 'Results' });
      const child = await results({
        Columns: [
          { ColumnName: 'ClassA', ChoicesText: `[[${parent},NoAddButton]]` },
          { ColumnName: 'ClassB', ChoicesText: `[[${foreign}]]` },
        ],
      });
      const stored = await settingsOf(child);
      expect(stored.Links).toEqual([{ ColumnName: 'ClassA', SiteId: parent, NoAddButton: true }]);
      expect(stored.Columns).toEqual([
        { ColumnName: 'ClassA', ChoicesText: `[[${parent},NoAddButton]]`, Link: true },
        { ColumnName: 'ClassB', ChoicesText: `[[${foreign}]]`, Link: true },
      ]);
    });
  });

  describe('refusals', () => {
    it.each([
      [
        'a number of the wrong type',
        { Columns: [{ ColumnName: 'NumA', DecimalPlaces: 'two' }] },
        'SiteSettings.Columns[0].DecimalPlaces',
      ],
      [
        'a flag of the wrong type',
        { Columns: [{ ColumnName: 'ClassA', NoDuplication: 'yes' }] },
        'SiteSettings.Columns[0].NoDuplication',
      ],
      ['GridColumns that are not names', { GridColumns: { Title: true } }, 'SiteSettings.GridColumns'],
      ['a Version from before 1.009', { Version: 1.003 }, 'SiteSettings.Version'],
    ])('refuses %s with 400 naming it, storing nothing', async (_name, SiteSettings, property) => {
      const answer = await post('/api/items/0/createsite', {
        Title: 't',
        ReferenceType: 'Results',
        SiteSettings,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.Errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ Property: property })]),
      );
    });

    it('refuses such a value on updatesite and keeps the stored settings', async () => {
      const siteId = await results({ Columns: [{ ColumnName: 'ClassA', LabelText: 'Kept' }] });
      const before = await settingsOf(siteId);
      const answer = await post(`/api/items/${siteId}/updatesite`, {
        SiteSettings: { Columns: [{ ColumnName: 'ClassA', Hide: 'no' }] },
      });
      expect(answer.status).toBe(400);
      expect(await settingsOf(siteId)).toEqual(before);
    });

    it('drops entries that name no column of the table and duplicates, as the reference does', async () => {
      const siteId = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Wikis',
        SiteSettings: {
          Columns: [
            { ColumnName: 'ClassA', LabelText: 'No such column in a wiki' },
            { ColumnName: 'Title', LabelText: 'Page' },
            { ColumnName: 'Title', LabelText: 'Second' },
          ],
        },
      });
      expect((await settingsOf(siteId)).Columns).toEqual([{ ColumnName: 'Title', LabelText: 'Page' }]);
    });
  });
});

describe('site packages', () => {
  const packaged = (SiteSettings: object) => ({
    Sites: [
      {
        SiteId: 1,
        Title: 'From a package',
        ReferenceType: 'Results',
        ParentId: 0,
        InheritPermission: 1,
        Permissions: [],
        SiteSettings,
      },
    ],
  });

  it('stores the sites of a package in the reference form, under their new ids', async () => {
    const template = templates.find((each) => each.siteSettings.Version === 1.011) as TemplateFile;
    const answer = await post('/api/items/0/importsitepackage', {
      Package: {
        Sites: [
          {
            ...packaged({}).Sites[0],
            ReferenceType: template.referenceType,
            SiteSettings: template.siteSettings,
          },
        ],
      },
    });
    expect(answer.body.StatusCode, answer.text).toBe(200);
    const siteId = Number(answer.body.Id);
    const stored = await settingsOf(siteId);
    expect(stored).toMatchObject({ Version: 1.017, ReferenceType: template.referenceType, SiteId: siteId });
    expect(stored).not.toHaveProperty('EditorColumns');
  });

  it('refuses a value of the wrong type with 400 naming where it is in the package', async () => {
    const answer = await post('/api/items/0/importsitepackage', {
      Package: packaged({ Columns: [{ ColumnName: 'NumA', DecimalPlaces: [2] }] }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.Errors).toEqual([
      expect.objectContaining({ Property: 'Package.Sites[0].SiteSettings.Columns[0].DecimalPlaces' }),
    ]);
  });
});

describe('updatesitesettings', () => {
  const update = (siteId: number, body: object) => post(`/api/items/${siteId}/updatesitesettings`, body);

  it('merges Columns per column: the properties given override, the others stay', async () => {
    const siteId = await results({
      Columns: [
        { ColumnName: 'ClassA', LabelText: 'Colour', ChoicesText: 'R,Red\nG,Green' },
        { ColumnName: 'NumA', LabelText: 'Weight', Unit: 'kg' },
      ],
    });
    const answer = await update(siteId, {
      Columns: [
        { ColumnName: 'ClassA', ChoicesText: 'R,Red\nB,Blue', ValidateRequired: true },
        { ColumnName: 'NumA', Unit: '' },
        { ColumnName: 'DateA', LabelText: 'Shipped' },
      ],
    });
    expect(answer.body.StatusCode, answer.text).toBe(200);
    expect((await settingsOf(siteId)).Columns).toEqual([
      { ColumnName: 'ClassA', LabelText: 'Colour', ChoicesText: 'R,Red\nB,Blue', ValidateRequired: true },
      { ColumnName: 'NumA', LabelText: 'Weight' },
      { ColumnName: 'DateA', LabelText: 'Shipped' },
    ]);
  });

  it('replaces the tabs of EditorColumnHash given, and GridColumns and FilterColumns', async () => {
    const siteId = await results({ EditorColumnHash: { General: ['Title', 'ClassA'], '_Tab-1': ['NumA'] } });
    await update(siteId, {
      EditorColumnHash: { General: ['Title', 'ClassB'] },
      GridColumns: ['ResultId', 'Title'],
      FilterColumns: ['ClassB'],
    });
    expect(await settingsOf(siteId)).toMatchObject({
      EditorColumnHash: { General: ['Title', 'ClassB'], '_Tab-1': ['NumA'] },
      GridColumns: ['ResultId', 'Title'],
      FilterColumns: ['ClassB'],
    });
  });

  it('a property set back to its default leaves the stored entry', async () => {
    const siteId = await results({ Columns: [{ ColumnName: 'Status', DefaultInput: '' }] });
    await update(siteId, { Columns: [{ ColumnName: 'Status', DefaultInput: '100' }] });
    expect(await settingsOf(siteId)).not.toHaveProperty('Columns');
  });

  it('merges Links by ColumnName and derives the links of the columns it changes', async () => {
    const parent = await results({});
    const siteId = await results({});
    await update(siteId, { Columns: [{ ColumnName: 'ClassA', ChoicesText: `[[${parent}]]` }] });
    expect((await settingsOf(siteId)).Links).toEqual([{ ColumnName: 'ClassA', SiteId: parent }]);
    await update(siteId, { Links: [{ ColumnName: 'ClassA', SiteId: parent, AddSource: true }] });
    expect((await settingsOf(siteId)).Links).toEqual([
      { ColumnName: 'ClassA', SiteId: parent, AddSource: true },
    ]);
  });

  it.each([
    [
      'a column the table does not have',
      { Columns: [{ ColumnName: 'StartTime', LabelText: 'x' }] },
      'Columns[0]',
    ],
    ['a Columns entry without ColumnName', { Columns: [{ LabelText: 'x' }] }, 'Columns.0.ColumnName'],
    ['Sections, which it does not merge', { Sections: [] }, 'Sections'],
  ])('refuses %s with 400', async (_name, body, named) => {
    const siteId = await results({});
    const answer = await update(siteId, body);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(named);
  });
});
