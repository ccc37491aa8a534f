import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailNotice, type NoticeOrigin, NotificationType } from '../../lib/notifications/model';
import { deliveryId, enqueueNotices } from '../../lib/notifications/queue';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The routes of a site's deliveries (lib/routes/notifications.ts): who may call them, and what they
 * answer. No stream consumer runs here: queued rows stay Pending.
 */

let stack: Stack;
let accounts: TestAccounts;
let manager: TestUser;
let reader: TestUser;
let outsider: TestUser;
let site: number;
let ids: string[];

const mail = (to: string): MailNotice => ({
  kind: 'mail',
  type: NotificationType.Mail,
  to: [to],
  cc: [],
  bcc: [],
  subject: 'Changed',
  body: 'A record changed.',
});

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  const admin = accounts.admin.apiKey;
  manager = await createUser(stack.url, admin, `manager-${Date.now()}`);
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  outsider = await createUser(stack.url, admin, `outsider-${Date.now()}`);
  site = await createSite(stack.url, admin, 0, {
    Title: 'Notified',
    ReferenceType: 'Results',
    Permissions: [`User,${manager.userId},129`, `User,${reader.userId},1`],
  });
  // 55 deliveries, one a millisecond apart, so that their ids sort in the order they were made.
  ids = [];
  for (let index = 0; index < 55; index++) {
    const origin: NoticeOrigin = {
      tenantId: 1,
      siteId: site,
      recordId: 1000 + index,
      notificationId: 2,
      event: 'Created',
      source: `route-test-${index}`,
      at: Date.parse('2026-01-31T00:00:00Z') + index,
    };
    await enqueueNotices(origin, [mail(`user${index}@example.com`)]);
    ids.push(deliveryId(origin, 0));
  }
});
afterAll(() => stack.close());

const post = (path: string, body: object) => call(stack.url, path, body);
type Listed = { Deliveries: Record<string, unknown>[]; Next?: string };

describe('POST /api/items/{siteId}/notifications/*', () => {
  const routes = ['deliveries', 'secret', 'replay'];
  const callers: [string, () => string, () => number, number][] = [
    ['the privileged administrator', () => accounts.admin.apiKey, () => site, 200],
    ['a user with ManageSite', () => manager.apiKey, () => site, 200],
    ['a user who only reads the site', () => reader.apiKey, () => site, 403],
    ['a user who cannot read the site', () => outsider.apiKey, () => site, 404],
    ["another tenant's manager", () => accounts.other.apiKey, () => site, 404],
    ['anyone, for a site that does not exist', () => accounts.admin.apiKey, () => 999_999, 404],
    ['a wrong API key', () => 'f'.repeat(128), () => site, 401],
  ];
  describe.each(routes)('%s', (route) => {
    it.each(callers)('answers %s with %i', async (_who, key, siteOf, status) => {
      const answer = await post(`/api/items/${siteOf()}/notifications/${route}`, {
        ApiKey: key(),
        // A replay of the failure queue, which is empty: nothing to do, but the permission is checked.
      });
      expect(answer.status).toBe(status);
      expect(answer.body.StatusCode).toBe(status);
      if (status !== 200) expect(answer.body.Message).toEqual(expect.any(String));
    });
  });

  it.each([
    ['deliveries', { Status: 'Sent' }, 'Status'],
    ['deliveries', { Next: 'not-a-next' }, 'Next'],
    ['secret', { Rotate: 'maybe' }, 'Rotate'],
    ['replay', { DeliveryIds: ['nope'] }, 'DeliveryIds[0]'],
    ['replay', { DeliveryIds: [] }, 'DeliveryIds'],
    ['replay', { DeliveryIds: 'all' }, 'DeliveryIds'],
  ])('%s refuses %j with a 400 naming %s', async (route, body, property) => {
    const answer = await post(`/api/items/${site}/notifications/${route}`, {
      ApiKey: accounts.admin.apiKey,
      ...body,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ StatusCode: 400, Message: 'Invalid request.' });
    expect(JSON.stringify(answer.body.Errors)).toContain(property);
  });
});

describe('POST /api/items/{siteId}/notifications/deliveries', () => {
  it('lists the newest first, 50 a page, with Next until the last page', async () => {
    const first = await post(`/api/items/${site}/notifications/deliveries`, { ApiKey: manager.apiKey });
    const page = first.body.Response as Listed;
    expect(page.Deliveries).toHaveLength(50);
    expect(page.Deliveries[0]).toEqual({
      DeliveryId: ids[54],
      NotificationId: 2,
      RecordId: 1054,
      Event: 'Created',
      Type: 1,
      Target: 'user54@example.com',
      Status: 'Pending',
      Attempts: 0,
      CreatedAt: '2026-01-31T00:00:00.054Z',
    });
    expect(page.Next).toEqual(expect.any(String));
    const second = await post(`/api/items/${site}/notifications/deliveries`, {
      ApiKey: manager.apiKey,
      Next: page.Next,
    });
    const rest = second.body.Response as Listed;
    expect(rest.Deliveries.map((delivery) => delivery.DeliveryId)).toEqual(ids.slice(0, 5).reverse());
    expect(rest.Next).toBeUndefined();
  });

  it.each([
    ['Pending', 55],
    ['Failed', 0],
    ['Delivered', 0],
  ])('filters by Status %s', async (status, count) => {
    let seen = 0;
    let next: string | undefined;
    do {
      const answer = await post(`/api/items/${site}/notifications/deliveries`, {
        ApiKey: manager.apiKey,
        Status: status,
        ...(next && { Next: next }),
      });
      const page = answer.body.Response as Listed;
      expect(page.Deliveries.every((delivery) => delivery.Status === status)).toBe(true);
      seen += page.Deliveries.length;
      next = page.Next;
    } while (next);
    expect(seen).toBe(count);
  });

  it("does not list another tenant's site's deliveries, even with a Next of it", async () => {
    const theirs = await createSite(stack.url, accounts.other.apiKey, 0, {
      Title: 'Theirs',
      ReferenceType: 'Results',
    });
    const answer = await post(`/api/items/${theirs}/notifications/deliveries`, {
      ApiKey: accounts.other.apiKey,
      Next: ids[10],
    });
    expect(answer.body).toEqual({ StatusCode: 200, Response: { Deliveries: [] } });
  });
});

describe('POST /api/items/{siteId}/notifications/secret', () => {
  it('makes the secret on first read, keeps it, and rotates it on request', async () => {
    const read = async (body: object = {}) =>
      (await post(`/api/items/${site}/notifications/secret`, { ApiKey: manager.apiKey, ...body })).body
        .Response as { Secret: string; CreatedAt: string };
    const first = await read();
    expect(first.Secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await read()).toEqual(first);
    const rotated = await read({ Rotate: 1 });
    expect(rotated.Secret).not.toBe(first.Secret);
    expect(await read({ Rotate: false })).toEqual(rotated);
  });
});

describe('POST /api/items/{siteId}/notifications/replay', () => {
  it('refuses a delivery that is not Failed or Refused, naming it, and replays nothing', async () => {
    const answer = await post(`/api/items/${site}/notifications/replay`, {
      ApiKey: manager.apiKey,
      DeliveryIds: [ids[0], '20260131000000000-ffffffffffffffffffff'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.Errors).toEqual([
      {
        Property: 'DeliveryIds[0]',
        Problem: `${ids[0]} is Pending: only Failed and Refused deliveries are sent again`,
      },
    ]);
  });

  it('refuses an id that is no delivery of the site', async () => {
    const answer = await post(`/api/items/${site}/notifications/replay`, {
      ApiKey: manager.apiKey,
      DeliveryIds: ['20260131000000000-ffffffffffffffffffff'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.Errors).toEqual([
      {
        Property: 'DeliveryIds[0]',
        Problem: `20260131000000000-ffffffffffffffffffff is not a delivery of site ${site}`,
      },
    ]);
  });

  it('answers 0 when the failure queue is empty', async () => {
    const answer = await post(`/api/items/${site}/notifications/replay`, { ApiKey: manager.apiKey });
    expect(answer.body).toEqual({
      StatusCode: 200,
      Response: { Replayed: 0 },
      Message: '0 deliveries have been queued again.',
    });
  });
});
