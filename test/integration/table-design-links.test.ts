import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * DeleteWithLinks (reference/pleasanter-columns.md 6): deleting a parent record deletes the children of
 * the sites whose link to its site carries the action, where the caller may delete.
 */

let stack: Stack;
let admin: string;
/** Read, Create, Update and Delete on the parent site and the children sites, but Delete on `guarded`. */
let writer: TestUser;

const post = (path: string, body: object = {}, key = admin) =>
  call(stack.url, path, { ApiKey: key, ...body });
const titlesIn = async (siteId: number) => {
  const answer = await post(`/api/items/${siteId}/get`);
  return (answer.body.Response as { Data: { Title: string }[] }).Data.map((record) => record.Title).sort();
};
const deleteAction = [{ Type: 'DeleteWithLinks' }];

let parents: number;
/** Linked through a Links entry with the action. */
let byLinks: number;
/** Linked through a JSON link in ClassB's ChoicesText with the action, ClassB multi-select. */
let byChoices: number;
/** Linked with the action, but its View keeps the children whose Status is 900. */
let filtered: number;
/** Linked without the action. */
let kept: number;
/** Linked with the action, where the writer may not delete. */
let guarded: number;

beforeAll(async () => {
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `links-${Date.now()}`);
  const full = [`User,${writer.userId},15`];
  parents = await createSite(stack.url, admin, 0, {
    Title: 'Parents',
    ReferenceType: 'Results',
    Permissions: full,
  });
  const child = (Title: string, SiteSettings: object, Permissions = full) =>
    createSite(stack.url, admin, 0, { Title, ReferenceType: 'Results', Permissions, SiteSettings });
  byLinks = await child('By links', {
    Columns: [{ ColumnName: 'ClassA', ChoicesText: `[[${parents}]]` }],
    Links: [{ ColumnName: 'ClassA', SiteId: parents, LinkActions: deleteAction }],
  });
  byChoices = await child('By choices', {
    Columns: [
      {
        ColumnName: 'ClassB',
        MultipleSelections: true,
        ChoicesText: JSON.stringify([{ SiteId: parents, LinkActions: deleteAction }]),
      },
    ],
  });
  filtered = await child('Filtered', {
    Links: [
      {
        ColumnName: 'ClassA',
        SiteId: parents,
        LinkActions: [{ Type: 'DeleteWithLinks', View: { ColumnFilterHash: { Status: '[100]' } } }],
      },
    ],
  });
  kept = await child('Kept', { Links: [{ ColumnName: 'ClassA', SiteId: parents }] });
  guarded = await child(
    'Guarded',
    { Links: [{ ColumnName: 'ClassA', SiteId: parents, LinkActions: deleteAction }] },
    [`User,${writer.userId},7`],
  );
});
afterAll(() => stack.close());

describe('DeleteWithLinks', () => {
  it('deletes a parent’s children where the link says so, and only those', async () => {
    const parent = await createRecord(stack.url, admin, parents, { Title: 'P1' });
    const other = await createRecord(stack.url, admin, parents, { Title: 'P2' });
    const add = (siteId: number, Title: string, body: object) =>
      createRecord(stack.url, admin, siteId, { Title, ...body });
    await add(byLinks, 'child', { ClassA: String(parent) });
    await add(byLinks, 'other parent', { ClassA: String(other) });
    // Not an exact id: a prefix of another id must not match.
    await add(byLinks, 'prefix', { ClassA: String(parent).slice(0, -1) || 'x' });
    await add(byChoices, 'multi', { ClassB: JSON.stringify([String(other), String(parent)]) });
    await add(byChoices, 'multi other', { ClassB: JSON.stringify([String(other)]) });
    await add(filtered, 'open', { ClassA: String(parent), Status: 100 });
    await add(filtered, 'closed', { ClassA: String(parent), Status: 900 });
    await add(kept, 'no action', { ClassA: String(parent) });
    await add(guarded, 'no delete', { ClassA: String(parent) });

    const deleted = await post(`/api/items/${parent}/delete`, {}, writer.apiKey);
    expect(deleted.body).toMatchObject({ StatusCode: 200, Message: '" P1 " has been deleted.' });
    expect(await titlesIn(byLinks)).toEqual(['other parent', 'prefix']);
    expect(await titlesIn(byChoices)).toEqual(['multi other']);
    expect(await titlesIn(filtered)).toEqual(['closed']);
    expect(await titlesIn(kept)).toEqual(['no action']);
    expect(await titlesIn(guarded)).toEqual(['no delete']);
  });

  it('deletes the children of every parent a bulkdelete deletes', async () => {
    const first = await createRecord(stack.url, admin, parents, { Title: 'B1' });
    const second = await createRecord(stack.url, admin, parents, { Title: 'B2' });
    const third = await createRecord(stack.url, admin, parents, { Title: 'B3' });
    for (const [parent, Title] of [
      [first, 'of B1'],
      [second, 'of B2'],
      [third, 'of B3'],
    ] as const)
      await createRecord(stack.url, admin, byLinks, { Title, ClassA: String(parent) });
    const answer = await post(
      `/api/items/${parents}/bulkdelete`,
      { Selected: [first, second] },
      writer.apiKey,
    );
    expect(answer.body.StatusCode).toBe(200);
    const left = await titlesIn(byLinks);
    expect(left).toContain('of B3');
    expect(left).not.toContain('of B1');
    expect(left).not.toContain('of B2');
  });

  it('leaves the children of a site where one is locked against the caller', async () => {
    const parent = await createRecord(stack.url, admin, parents, { Title: 'L' });
    const locked = await createRecord(stack.url, admin, byChoices, {
      Title: 'locked child',
      ClassB: JSON.stringify([String(parent)]),
    });
    await createRecord(stack.url, admin, byChoices, {
      Title: 'its sibling',
      ClassB: JSON.stringify([String(parent)]),
    });
    expect((await post(`/api/items/${locked}/update`, { Locked: true })).body.StatusCode).toBe(200);
    expect((await post(`/api/items/${parent}/delete`, {}, writer.apiKey)).body.StatusCode).toBe(200);
    expect(await titlesIn(byChoices)).toEqual(expect.arrayContaining(['its sibling', 'locked child']));
  });
});
