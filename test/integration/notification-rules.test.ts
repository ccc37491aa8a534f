import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryRow, deliveryKeys } from '../../lib/notifications/queue';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { streamSubscriptions } from '../../lib/streams';
import { importStreamHandler, type StreamHandlerLoader } from '../../local/stream-subscriptions';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Site notifications through the stack: a record's changes reach the Items-stream consumer
 * (functions/notifications.ts), which queues the notices that fire in the Deliveries table. Only that
 * consumer runs, each batch twice (a redone batch must add nothing), so the rows stay Pending for the
 * test to read. And a server script's `notifications`.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;

const post = (path: string, body?: unknown) => call(stack.url, path, body);

/** Every batch of the notifications consumer runs twice, as a retried batch would. */
const twice: StreamHandlerLoader = async (name) => {
  const handler = await importStreamHandler(name);
  return async (event, context) => {
    await handler(event, context);
    return handler(event, context);
  };
};

const notifications = [
  { Id: 1, Type: 2, Prefix: '[Shop]', Address: 'https://hooks.slack.test/T1' },
  {
    Id: 2,
    Type: 9,
    Address: 'https://hook.test/in',
    MethodType: 2,
    MonitorChangesColumns: ['ClassA'],
    AfterDelete: false,
    UseCustomFormat: true,
    Format: '{"id":"[ResultId]","kind":"[ClassA]"}',
  },
  { Id: 3, Type: 1, Address: '[RelatedUsers]', Disabled: true },
];

async function tenantOf(siteId: number, apiKey: string): Promise<number> {
  const site = await post(`/api/items/${siteId}/getsite`, { ApiKey: apiKey });
  return Number((site.body.Response as { Data: { TenantId: number } }).Data.TenantId);
}

async function rows(tenantId: number, siteId: number): Promise<DeliveryRow[]> {
  const found = await dynamo().send(
    new QueryCommand({
      TableName: tableName('deliveries'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': deliveryKeys.site(tenantId, siteId) },
    }),
  );
  return (found.Items ?? []) as DeliveryRow[];
}

/** The site's rows once `count` are there (the stream is polled), after a moment for any extra one. */
async function rowsWhen(tenantId: number, siteId: number, count: number): Promise<DeliveryRow[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const found = await rows(tenantId, siteId);
    if (found.length >= count) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return rows(tenantId, siteId);
    }
    if (Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const summary = (row: DeliveryRow) => `${row.NotificationId ?? '-'}:${row.Event}:${row.RecordId}`;

beforeAll(async () => {
  stack = await startStack({
    streams: true,
    streamSubscriptions: streamSubscriptions.filter((entry) => entry.handler === 'notifications'),
    loadStreamHandler: twice,
  });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
});
afterAll(() => stack.close());

describe('notifications from the Items stream', () => {
  it('queues what fires on a creation, updates and a deletion, once each, and nothing in another tenant', async () => {
    const site = await createSite(stack.url, admin, 0, {
      Title: 'Orders',
      ReferenceType: 'Results',
      SiteSettings: { Notifications: notifications },
    });
    const otherSite = await createSite(stack.url, accounts.other.apiKey, 0, {
      Title: 'Theirs',
      ReferenceType: 'Results',
      SiteSettings: { Notifications: notifications },
    });
    const tenant = await tenantOf(site, admin);
    const otherTenant = await tenantOf(otherSite, accounts.other.apiKey);

    const id = await createRecord(stack.url, admin, site, { Title: 'Order 1', ClassHash: { ClassA: 'a' } });
    const created = await rowsWhen(tenant, site, 2);
    expect(created.map(summary).sort()).toEqual([`1:Created:${id}`, `2:Created:${id}`]);
    const slack = created.find((row) => row.NotificationId === 1);
    expect(slack?.Status).toBe('Pending');
    expect(slack?.Notice).toMatchObject({
      kind: 'http',
      type: 2,
      method: 'POST',
      url: 'https://hooks.slack.test/T1',
    });
    const text = JSON.parse(String((slack?.Notice as { body: string } | undefined)?.body)).text as string;
    expect(text).toMatch(/^\*\[Shop\]" Order 1 " has been created\.\*\n\/#\/items\/\d+\n/);
    expect(created.find((row) => row.NotificationId === 2)?.Notice).toMatchObject({
      method: 'POST',
      body: `{"id":"${id}","kind":"a"}\n`,
      signed: true,
    });

    // The title is an editor column (notification 1 watches them all), not ClassA (notification 2's).
    expect(
      (await post(`/api/items/${id}/update`, { ApiKey: admin, Title: 'Order 1b' })).body.StatusCode,
    ).toBe(200);
    await rowsWhen(tenant, site, 3);
    expect(
      (await post(`/api/items/${id}/update`, { ApiKey: admin, ClassHash: { ClassA: 'b' } })).body.StatusCode,
    ).toBe(200);
    await rowsWhen(tenant, site, 4);
    expect((await post(`/api/items/${id}/delete`, { ApiKey: admin })).body.StatusCode).toBe(200);
    const all = await rowsWhen(tenant, site, 5);
    expect(all.map(summary).sort()).toEqual(
      [`1:Created:${id}`, `2:Created:${id}`, `1:Updated:${id}`, `2:Updated:${id}`, `1:Deleted:${id}`].sort(),
    );
    expect(all.every((row) => row.TenantId === tenant && row.SiteId === site)).toBe(true);
    // Newest last in key order: the ids are time-ordered.
    expect(all.map((row) => row.Event)).toEqual(['Created', 'Created', 'Updated', 'Updated', 'Deleted']);
    expect(await rows(otherTenant, otherSite)).toEqual([]);
    expect(await rows(otherTenant, site)).toEqual([]);
  });

  it.each([
    [{ Id: 1, Type: 4, Address: 'x' }, 'SiteSettings.Notifications[0].Type'],
    [{ Id: 1, Type: 9, Address: 'not a url' }, 'SiteSettings.Notifications[0].Address'],
    [{ Id: 1, Type: 9, Address: 'https://h.test/', Headers: '{' }, 'SiteSettings.Notifications[0].Headers'],
  ])('createsite refuses %j with a 400 naming %s', async (entry, property) => {
    const refused = await post('/api/items/0/createsite', {
      ApiKey: admin,
      Title: 'Bad',
      ReferenceType: 'Results',
      SiteSettings: { Notifications: [entry] },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(property);
  });
});

describe('the notifications script object', () => {
  it("queues a script's Send() after the save, a refused save's Before sends never", async () => {
    const site = await createSite(stack.url, admin, 0, {
      Title: 'Scripted',
      ReferenceType: 'Results',
      SiteSettings: {
        Notifications: [notifications[0]],
        ServerScripts: [
          {
            Id: 1,
            Name: 'mail',
            AfterCreate: true,
            Body: "const n = notifications.New(); n.Address = 'boss@x.test'; n.Title = 'New ' + model.Title; n.Body = 'see it'; n.Send();",
          },
          {
            Id: 2,
            Name: 'copy',
            BeforeCreate: true,
            Body: "const n = notifications.Get(1); n.Title = 'Before'; n.Body = model.Title; n.Send(); if (model.Title === 'no') context.Error('refused');",
          },
        ],
      },
    });
    const tenant = await tenantOf(site, admin);
    const id = await createRecord(stack.url, admin, site, { Title: 'Order 9' });
    const refused = await post(`/api/items/${site}/create`, { ApiKey: admin, Title: 'no' });
    expect(refused.body.StatusCode).not.toBe(200);
    const queued = (await rowsWhen(tenant, site, 3)).filter((row) => row.Event === 'Script');
    expect(queued.map((row) => row.RecordId)).toEqual([id, id]);
    expect(queued.map((row) => row.Notice)).toEqual(
      expect.arrayContaining([
        {
          kind: 'mail',
          type: 1,
          to: ['boss@x.test'],
          cc: [],
          bcc: [],
          subject: 'New Order 9',
          body: 'see it',
        },
        expect.objectContaining({
          kind: 'http',
          type: 2,
          url: 'https://hooks.slack.test/T1',
          body: JSON.stringify({ text: '*[Shop]Before*\nOrder 9', username: 'Administrator' }),
        }),
      ]),
    );
    expect(queued.find((row) => row.Notice?.kind === 'http')?.NotificationId).toBe(1);
  });

  it('fails the script on Get of an unknown id, as the reference', async () => {
    const site = await createSite(stack.url, admin, 0, {
      Title: 'Unknown',
      ReferenceType: 'Results',
      SiteSettings: {
        ServerScripts: [{ Id: 1, Name: 'get', BeforeCreate: true, Body: 'notifications.Get(7).Send();' }],
      },
    });
    const failed = await post(`/api/items/${site}/create`, { ApiKey: admin, Title: 'x' });
    expect(failed.status).toBe(500);
  });
});
