import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The table design in the browser (issue 24): the column editor of the site settings, the record form and
 * the grid that follow it, the templates of a new site; at 360 px and checked by axe-core.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function settingsOf(siteId: number): Promise<Record<string, unknown>> {
  const answer = await call(stack.url, `/api/items/${siteId}/getsite`, { ApiKey: accounts.admin.apiKey });
  return (answer.body.Response as { Data: { SiteSettings: Record<string, unknown> } }).Data.SiteSettings;
}

async function recordsOf(siteId: number): Promise<Record<string, unknown>[]> {
  const answer = await call(stack.url, `/api/items/${siteId}/get`, { ApiKey: accounts.admin.apiKey });
  return (answer.body.Response as { Data: Record<string, unknown>[] }).Data;
}

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

const hashOf = (page: Page) => page.evaluate<string>('location.hash');

describe('the column editor', () => {
  it('edits a label and a choice list, places the column in the editor and the grid, and both follow', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Sightings',
      ReferenceType: 'Results',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    await page.getByLabel('Column to edit').selectOption('ClassA');
    await page.getByLabel('Label', { exact: true }).fill('Region');
    const choices = page.getByLabel('Choices', { exact: true });
    await choices.fill('N,North\nS,South\n[[abc]]');
    // The preview parses as the server does, and says what it drops.
    const preview = page.locator('.choices-preview');
    await expect.poll(() => preview.textContent()).toContain('South (S)');
    await expect.poll(() => preview.locator('.problems').textContent()).toContain('Line 3');
    await choices.fill('N,North\nS,South');
    await expect.poll(() => preview.locator('.problems').count()).toBe(0);

    const editor = page.getByRole('group', { name: 'Editor columns' });
    await editor.getByLabel('Column to add').selectOption('ClassA');
    await editor.getByRole('button', { name: 'Add', exact: true }).click();
    await editor.getByRole('button', { name: 'Add a section' }).click();
    await editor.getByLabel('Section name').fill('Where');
    // The section goes above Region, from the keyboard.
    await editor.getByRole('button', { name: 'Move up: Where' }).press('Enter');
    const grid = page.getByRole('group', { name: 'Grid columns' });
    await grid.getByLabel('Column to add').selectOption('ClassA');
    await grid.getByRole('button', { name: 'Add', exact: true }).click();
    // By dragging (Region onto Title/Content takes its place), then one step down from the keyboard.
    await grid.locator('li', { hasText: 'Region' }).dragTo(grid.locator('li', { hasText: 'Title/Content' }));
    await expect.poll(async () => (await grid.locator('li .name').allTextContents())[1]).toContain('Region');
    await grid.getByRole('button', { name: 'Move down: Region' }).press('Enter');
    await expectAccessible(page);
    await screenshot(page, 'table-design');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();

    const settings = await settingsOf(site);
    expect(settings.Columns).toEqual([
      { ColumnName: 'ClassA', LabelText: 'Region', ChoicesText: 'N,North\nS,South' },
    ]);
    expect(settings.EditorColumnHash).toEqual({
      General: [
        'ResultId',
        'Ver',
        'Title',
        'Body',
        'Status',
        'Manager',
        'Owner',
        'Comments',
        '_Section-1',
        'ClassA',
      ],
    });
    expect(settings.Sections).toEqual([{ Id: 1, LabelText: 'Where', Expand: true }]);
    expect(settings.GridColumns).toEqual([
      'ResultId',
      'TitleBody',
      'ClassA',
      'Comments',
      'Status',
      'Manager',
      'Owner',
      'Updator',
      'UpdatedTime',
    ]);

    await page.goto(`${stack.url}/#/sites/${site}/new`);
    await page.getByRole('heading', { name: 'Where' }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Heron at the lake');
    const region = page.getByLabel('Region');
    expect(await region.locator('option').allTextContents()).toEqual(['(not set)', 'North', 'South']);
    await region.selectOption({ label: 'South' });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => hashOf(page)).toMatch(/^#\/items\/\d+$/);
    const [record] = await recordsOf(site);
    expect(record?.ClassHash).toMatchObject({ ClassA: 'S' });

    await page.goto(`${stack.url}/#/sites/${site}`);
    await page.getByRole('columnheader', { name: 'Region' }).waitFor();
    expect(await page.locator('thead th').allTextContents()).toEqual([
      'ID',
      'Title/Content',
      'Region',
      'Comments',
      'Status',
      'Manager',
      'Owner',
      'Updated by',
      'Updated on',
    ]);
    await page.getByRole('cell', { name: 'South' }).waitFor();
    // Status shows its choice text, not the number.
    await page.getByRole('cell', { name: '未着手' }).waitFor();
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('adds a link to a table picked by name, and the form searches its records by title', async () => {
    const customers = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Customers',
      ReferenceType: 'Results',
    });
    for (const title of ['Acme Corp', 'Globex', 'Initech'])
      await createRecord(stack.url, accounts.admin.apiKey, customers, { Title: title });
    const globex = (await recordsOf(customers)).find((record) => record.Title === 'Globex')?.ResultId;
    const orders = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Orders',
      ReferenceType: 'Results',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${orders}/settings`);
    await page.getByLabel('Column to edit').selectOption('ClassB');
    await page.getByLabel('Label', { exact: true }).fill('Customer');
    await page.getByLabel('Link to a table (find it by name)').fill('custom');
    await page.getByLabel('Site', { exact: true }).selectOption({ label: `Customers #${customers}` });
    await page.getByRole('button', { name: 'Add the link' }).click();
    expect(await page.getByLabel('Choices', { exact: true }).inputValue()).toBe(`[[${customers}]]`);
    await expect
      .poll(() => page.locator('.choices-preview').textContent())
      .toContain(`Records of site #${customers}`);
    const editor = page.getByRole('group', { name: 'Editor columns' });
    await editor.getByLabel('Column to add').selectOption('ClassB');
    await editor.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();

    await page.goto(`${stack.url}/#/sites/${orders}/new`);
    await page.getByLabel('Title', { exact: true }).fill('Ten anvils');
    const customer = page.getByLabel('Customer', { exact: true });
    await expect
      .poll(() => customer.locator('option').allTextContents())
      .toEqual(['(not set)', 'Acme Corp', 'Globex', 'Initech']);
    await page.getByLabel('Search: Customer').fill('glob');
    await expect.poll(() => customer.locator('option').allTextContents()).toEqual(['(not set)', 'Globex']);
    await customer.selectOption({ label: 'Globex' });
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => hashOf(page)).toMatch(/^#\/items\/\d+$/);
    const [order] = await recordsOf(orders);
    expect(order?.ClassHash).toMatchObject({ ClassB: String(globex) });
    // The form of the saved record shows the linked title.
    await expect
      .poll(() => page.getByLabel('Customer', { exact: true }).locator('option:checked').textContent())
      .toBe('Globex');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
  it('offers the lines of a linked wiki as choices', async () => {
    const wiki = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Prefectures',
      ReferenceType: 'Wikis',
    });
    await createRecord(stack.url, accounts.admin.apiKey, wiki, {
      Title: 'Prefectures',
      Body: '01,Hokkaido\n13,Tokyo\n27,Osaka',
    });
    const offices = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Offices',
      ReferenceType: 'Results',
      SiteSettings: {
        Columns: [{ ColumnName: 'ClassC', LabelText: 'Prefecture', ChoicesText: `[[${wiki}]]` }],
        EditorColumnHash: { General: ['Title', 'ClassC'] },
      },
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${offices}/new`);
    await page.getByLabel('Title', { exact: true }).fill('Head office');
    const prefecture = page.getByLabel('Prefecture', { exact: true });
    await page.getByLabel('Search: Prefecture').fill('tok');
    await expect.poll(() => prefecture.locator('option').allTextContents()).toEqual(['(not set)', 'Tokyo']);
    await prefecture.selectOption({ label: 'Tokyo' });
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => hashOf(page)).toMatch(/^#\/items\/\d+$/);
    expect((await recordsOf(offices))[0]?.ClassHash).toMatchObject({ ClassC: '13' });
    await page.context().close();
  });
});

describe('the record form', () => {
  it('refuses a required field and a number out of range with the reference messages, then saves a placed ClassB', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Samples',
      ReferenceType: 'Results',
      SiteSettings: {
        Columns: [
          {
            ColumnName: 'ClassB',
            LabelText: 'Batch',
            ValidateRequired: true,
            Description: 'As printed on the box',
          },
          { ColumnName: 'NumA', LabelText: 'Weight', Min: 0, Max: 10, Unit: 'kg', DecimalPlaces: 1 },
          { ColumnName: 'ClassC', LabelText: 'Lab code', EditorReadOnly: true },
          { ColumnName: 'ClassD', LabelText: 'Secret', Hide: true },
        ],
        EditorColumnHash: { General: ['ResultId', 'Title', 'ClassB', 'NumA', 'ClassC', 'ClassD'] },
        GridColumns: ['ResultId', 'Title', 'ClassB', 'NumA'],
      },
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${site}/new`);
    await page.getByLabel('Title', { exact: true }).fill('Sample 1');
    expect(await page.getByLabel('Secret').count()).toBe(0);
    expect(await page.locator('input#field-ClassC[readonly]').count()).toBe(1);
    await page.getByLabel('Weight').fill('12');
    await page.getByRole('button', { name: 'Create' }).click();
    const batch = page.getByLabel('Batch');
    await expect.poll(() => batch.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-ClassB-error').textContent()).toBe('This is a required field.');
    expect(await page.locator('#field-NumA-error').textContent()).toBe('The number entered is too large.');
    expect(await batch.getAttribute('aria-describedby')).toBe('field-ClassB-description field-ClassB-error');
    expect(await recordsOf(site)).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'form-checks');

    await batch.fill('B-7');
    await page.getByLabel('Weight').fill('-1');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => page.locator('#field-NumA-error').textContent())
      .toBe('The number entered is too small.');
    expect(await page.locator('#field-ClassB-error').count()).toBe(0);
    await page.getByLabel('Weight').fill('2.5');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => hashOf(page)).toMatch(/^#\/items\/\d+$/);
    const id = Number((await hashOf(page)).split('/')[2]);

    // The ClassB the design places is shown and edited on the saved record.
    await expect.poll(() => page.getByLabel('Batch').inputValue()).toBe('B-7');
    await page.getByLabel('Batch').fill('B-8');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();
    const [record] = await recordsOf(site);
    expect(record).toMatchObject({ ResultId: id, ClassHash: { ClassB: 'B-8' }, NumHash: { NumA: 2.5 } });

    await page.goto(`${stack.url}/#/sites/${site}`);
    await page.getByRole('cell', { name: '2.5kg' }).waitFor();
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it('creates a site from a template, and its form follows the design', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.getByLabel('Title', { exact: true }).fill('Stock');
    await page.getByLabel('Type').selectOption({ label: 'Inventory (Record table)' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'Stock' }).click();
    await page.getByRole('link', { name: 'New record' }).click();
    await page.getByLabel('Item code').waitFor();
    expect(await page.locator('input#field-NumC[readonly]').count()).toBe(1);
    const sites = await call(stack.url, '/api/items/0/childsites', { ApiKey: accounts.admin.apiKey });
    const stock = (sites.body.Response as { Data: { SiteId: number; Title: string }[] }).Data.find(
      (entry) => entry.Title === 'Stock',
    );
    const settings = await settingsOf(stock?.SiteId ?? 0);
    expect(settings.Formulas).toEqual([
      expect.objectContaining({
        Target: 'NumC',
        Formula: expect.objectContaining({ Children: expect.any(Array) }),
      }),
    ]);
    expect(settings.Columns).toContainEqual(
      expect.objectContaining({ ColumnName: 'ClassA', NoDuplication: true }),
    );
    await page.context().close();
  });
});

describe('at 360 px wide', () => {
  it('shows the column editor and the form without sideways scrolling, in Japanese too, and accessible', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Narrow design',
      ReferenceType: 'Issues',
      SiteSettings: {
        Columns: [{ ColumnName: 'ClassA', ChoicesText: '1,One\n2,Two', ValidateRequired: true }],
        EditorColumnHash: {
          General: ['IssueId', 'Title', 'ClassA', 'NumA', 'StartTime', 'Status', 'Manager'],
        },
      },
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth');
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    await page.getByLabel('Column to edit').selectOption('ClassA');
    await page.locator('.choices-preview').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(360);
    await expectAccessible(page);

    await page.goto(`${stack.url}/#/sites/${site}/new`);
    await page.getByLabel('Language').selectOption('ja');
    await page.getByLabel('タイトル', { exact: true }).fill('狭い画面');
    await page.getByRole('button', { name: '作成' }).click();
    await expect.poll(() => page.locator('#field-ClassA-error').textContent()).toBe('入力必須項目です。');
    expect(await overflow()).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await page.context().close();
  }, 60_000);
});
