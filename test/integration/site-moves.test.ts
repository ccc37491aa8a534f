import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerKeys, itemKeys } from '../../lib/sites/keys';
import { getSite, insertSite } from '../../lib/sites/repository';
import { nextItemId, table } from '../../lib/sites/store';
import { ancestry, MAX_TREE_DEPTH } from '../../lib/sites/tree';
import { dynamo } from '../../lib/storage/clients';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** Moving sites (issue 10, defects 3 and 8): the permission a move needs, and no cycle ever. */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let mover: TestUser;
const TENANT = 1;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const site = (parentId: number, body: object = {}, key = admin) => createSite(stack.url, key, parentId, body);
const move = (siteId: number, parentId: number, key = admin) =>
  post(`/api/items/${siteId}/updatesite`, { ApiKey: key, ParentId: parentId });
const parentOf = async (siteId: number) => (await getSite(TENANT, siteId))?.parentId;

/** Follows ParentId from every site given up to the top; fails on a cycle. */
async function expectTree(ids: readonly number[]) {
  for (const id of ids) {
    const seen = new Set<number>();
    for (let at: number | undefined = id; at && at !== 0; at = await parentOf(at)) {
      expect(seen.has(at), `site ${id} reaches ${at} twice`).toBe(false);
      seen.add(at);
    }
  }
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  mover = await createUser(stack.url, admin, `mover-${Date.now()}`);
});
afterAll(() => stack.close());

describe('the permission a move needs (defect 3)', () => {
  it('ManageSite alone cannot move a site into a folder of the mover: 403, and its records stay unread', async () => {
    const secret = await site(0, {
      Title: 'Secret',
      ReferenceType: 'Results',
      Permissions: [`User,${mover.userId},128`],
    });
    await createRecord(stack.url, admin, secret, { Title: 'classified' });
    const workspace = await site(0, { Title: 'Workspace', Permissions: [`User,${mover.userId},130`] });
    const own = await site(workspace, { Title: 'Mine', InheritPermission: 0 }, mover.apiKey);

    const moved = await move(secret, own, mover.apiKey);
    expect(moved.body.StatusCode, moved.text).toBe(403);
    expect(await parentOf(secret)).toBe(0);
    const read = await post(`/api/items/${secret}/get`, { ApiKey: mover.apiKey });
    expect(read.body.StatusCode).toBe(404); // a table the caller may not read is as if it did not exist (reference 2)
    expect(read.text).not.toContain('classified');
  });

  it('ManagePermission on the site but no Create on the new parent: 403', async () => {
    const movable = await site(0, { Title: 'Movable', Permissions: [`User,${mover.userId},384`] });
    const target = await site(0, { Title: 'Target', Permissions: [`User,${mover.userId},128`] });
    expect((await move(movable, target, mover.apiKey)).body.StatusCode).toBe(403);
    expect(await parentOf(movable)).toBe(0);
  });

  it('ManageSite and ManagePermission on the site and Create on the new parent: the move is made', async () => {
    const from = await site(0, { Title: 'From', Permissions: [`User,${mover.userId},511`] });
    const movable = await site(from, { Title: 'Movable' });
    const target = await site(0, { Title: 'Target', Permissions: [`User,${mover.userId},130`] });
    const moved = await move(movable, target, mover.apiKey);
    expect(moved.body.StatusCode, moved.text).toBe(200);
    expect(await parentOf(movable)).toBe(target);
  });
});

describe('cycles (defect 8)', () => {
  it('a move under its own subtree is 400', async () => {
    const top = await site(0);
    const child = await site(top);
    const grandchild = await site(child);
    expect((await move(top, grandchild)).body.StatusCode).toBe(400);
    expect((await move(top, top)).body.StatusCode).toBe(400);
    await expectTree([top, child, grandchild]);
  });

  it('concurrent opposite moves never make two folders each other’s parent', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await site(0, { Title: `A${round}` });
      const b = await site(0, { Title: `B${round}` });
      const answers = await Promise.all([move(a, b), move(b, a)]);
      const codes = answers.map((answer) => answer.body.StatusCode).sort();
      expect(codes, answers.map((answer) => answer.text).join()).toEqual([200, 400]);
      await expectTree([a, b]);
      const deleted = await post(`/api/items/${a}/deletesite`, { ApiKey: admin });
      expect(deleted.body.StatusCode).toBe(200);
    }
  });

  it('three concurrent moves around a ring close no cycle', async () => {
    for (let round = 0; round < 4; round++) {
      const ring = [await site(0), await site(0), await site(0)];
      const answers = await Promise.all(ring.map((id, index) => move(id, ring[(index + 1) % 3] as number)));
      expect(answers.every((answer) => [200, 400].includes(Number(answer.body.StatusCode)))).toBe(true);
      expect(answers.filter((answer) => answer.body.StatusCode === 200).length).toBeLessThanOrEqual(2);
      await expectTree(ring);
    }
  });

  it(`a site ${MAX_TREE_DEPTH} levels deep takes no child`, async () => {
    // The top comes through the API; the chain below it is written straight to the table, copies of it, since
    // 64 creations in a row, each walking every site above it, outlast the test's time on a loaded machine.
    let parent = await site(0);
    const top = await getSite(TENANT, parent);
    if (!top) throw new Error(`site ${parent} was not stored`);
    for (let depth = 1; depth < MAX_TREE_DEPTH; depth++) {
      const siteId = await nextItemId();
      await insertSite({
        ...top,
        siteId,
        parentId: parent,
        siteSettings: { ...top.siteSettings, SiteId: siteId },
      });
      parent = siteId;
    }
    expect(await ancestry(TENANT, parent)).toHaveLength(MAX_TREE_DEPTH);
    const refused = await post(`/api/items/${parent}/createsite`, {
      ApiKey: admin,
      Title: 'too deep',
      ReferenceType: 'Sites',
    });
    expect(refused.body.StatusCode).toBe(400);
    const other = await site(0);
    expect((await move(other, parent)).body.StatusCode).toBe(400);
  });
});

describe('walks over corrupt data end (defect 8)', () => {
  /** Sets a site's parent directly in the table, as a bug or a hand edit could. */
  const setParent = (siteId: number, parentId: number) =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: itemKeys.item(TENANT, siteId),
        UpdateExpression: 'SET ParentId = :parent, ContainerKey = :container',
        ExpressionAttributeValues: {
          ':parent': parentId,
          ':container': containerKeys.children(TENANT, parentId),
        },
      }),
    );

  it('deletesite on a two-site cycle removes both and answers at once', async () => {
    const a = await site(0);
    const b = await site(a);
    const records = await site(b, { ReferenceType: 'Results' });
    await createRecord(stack.url, admin, records);
    await setParent(a, b);
    const started = Date.now();
    const deleted = await post(`/api/items/${a}/deletesite`, { ApiKey: admin });
    expect(deleted.body.StatusCode, deleted.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await getSite(TENANT, a)).toBeUndefined();
    expect(await getSite(TENANT, b)).toBeUndefined();
    expect(await getSite(TENANT, records)).toBeUndefined();
  });

  it('exportsitepackage of a cycle lists each site once', async () => {
    const a = await site(0);
    const b = await site(a);
    await setParent(a, b);
    const exported = await post(`/api/items/${a}/exportsitepackage`, { ApiKey: admin });
    expect(exported.body.StatusCode, exported.text).toBe(200);
    const sites = (exported.body.Response as { Package: { Sites: { SiteId: number }[] } }).Package.Sites;
    expect(sites.map((entry) => entry.SiteId).sort()).toEqual([a, b].sort());
  });

  it('a move or a create under a cycle ends with a refusal, not a hang or a 500', async () => {
    const a = await site(0);
    const b = await site(a);
    await setParent(a, b);
    const other = await site(0);
    const moved = await move(other, b);
    expect([200, 400]).toContain(moved.body.StatusCode);
    const created = await post(`/api/items/${b}/createsite`, {
      ApiKey: admin,
      Title: 'x',
      ReferenceType: 'Sites',
    });
    expect([200, 400]).toContain(created.body.StatusCode);
    const read = await post(`/api/items/${b}/getsite`, { ApiKey: mover.apiKey });
    expect(read.body.StatusCode).toBe(403);
  });
});
