import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { uploadFile } from '../fixtures/binaries';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// Dates in the caller's zone (CONTRACT 5.1): the user's TimeZone, else the tenant's, else
// Service.TimeZoneDefault (Asia/Tokyo in the test stack's settings).

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let tokyo: TestUser;
let newYork: TestUser;
let site: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);

interface Row {
  DateHash?: Record<string, string>;
  UpdatedTime: string;
}
const dates = async (recordId: number, key: string) => {
  const result = await post(`/api/items/${recordId}/get`, { ApiKey: key });
  if (result.body.StatusCode !== 200) throw new Error(result.text);
  return ((result.body.Response as { Data: Row[] }).Data[0] as Row).DateHash ?? {};
};

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  tokyo = await createUser(stack.url, admin, `tokyo-${Date.now()}`, { TimeZone: 'Asia/Tokyo' });
  newYork = await createUser(stack.url, admin, `ny-${Date.now()}`, { TimeZone: 'america/new_york' });
  site = await createSite(stack.url, admin, 0, {
    Title: 'Zones',
    ReferenceType: 'Results',
    Permissions: [`User,${tokyo.userId},15`, `User,${newYork.userId},15`],
  });
});
afterAll(() => stack.close());

describe('users in different zones', () => {
  it('a user in Asia/Tokyo and one in America/New_York see the same instant, each in their own zone', async () => {
    const id = await createRecord(stack.url, tokyo.apiKey, site, { DateHash: { DateA: '2026-01-15 09:00' } });
    expect((await dates(id, tokyo.apiKey)).DateA).toBe('2026-01-15T09:00:00');
    expect((await dates(id, newYork.apiKey)).DateA).toBe('2026-01-14T19:00:00');
    // The administrator and their tenant have no zone: Service.TimeZoneDefault (Asia/Tokyo) applies.
    expect((await dates(id, admin)).DateA).toBe('2026-01-15T09:00:00');
    // New York writes in its own zone, summer time included.
    await post(`/api/items/${id}/update`, {
      ApiKey: newYork.apiKey,
      DateHash: { DateB: '2026-07-01T12:00:00' },
    });
    expect((await dates(id, newYork.apiKey)).DateB).toBe('2026-07-01T12:00:00');
    expect((await dates(id, tokyo.apiKey)).DateB).toBe('2026-07-02T01:00:00');
  });

  it("a site's times too: getsite and get on a folder answer them in the caller's zone", async () => {
    const folder = await createSite(stack.url, admin, 0, {
      Title: 'Zoned folder',
      Permissions: [`User,${tokyo.userId},1`, `User,${newYork.userId},1`],
    });
    const times = async (path: string, key: string) => {
      const result = await post(path, { ApiKey: key });
      const data = (result.body.Response as { Data: { CreatedTime: string } }).Data;
      return data.CreatedTime;
    };
    const inTokyo = await times(`/api/items/${folder}/getsite`, tokyo.apiKey);
    const inNewYork = await times(`/api/items/${folder}/getsite`, newYork.apiKey);
    expect(inTokyo).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const hours = (Date.parse(`${inTokyo}Z`) - Date.parse(`${inNewYork}Z`)) / 3_600_000;
    expect([13, 14]).toContain(hours);
    expect(await times(`/api/items/${folder}/get`, newYork.apiKey)).toBe(inNewYork);
  });

  it('a date with an offset is that instant for both', async () => {
    const id = await createRecord(stack.url, newYork.apiKey, site, {
      DateHash: { DateA: '2026-03-01T00:00:00Z' },
    });
    expect((await dates(id, tokyo.apiKey)).DateA).toBe('2026-03-01T09:00:00');
    expect((await dates(id, newYork.apiKey)).DateA).toBe('2026-02-28T19:00:00');
  });

  it('users/get shows the zone in its IANA spelling; a user may change their own', async () => {
    const shown = await post(`/api/users/${newYork.userId}/get`, { ApiKey: admin });
    expect((shown.body.Response as { Data: { TimeZone: string }[] }).Data[0]?.TimeZone).toBe(
      'America/New_York',
    );
    const id = await createRecord(stack.url, admin, site, { DateHash: { DateA: '2026-01-01T00:00:00Z' } });
    const own = await post(`/api/users/${newYork.userId}/update`, {
      ApiKey: newYork.apiKey,
      TimeZone: 'Europe/Paris',
    });
    expect(own.body.StatusCode).toBe(200);
    expect((await dates(id, newYork.apiKey)).DateA).toBe('2026-01-01T01:00:00');
    await post(`/api/users/${newYork.userId}/update`, { ApiKey: admin, TimeZone: 'America/New_York' });
    expect((await dates(id, newYork.apiKey)).DateA).toBe('2025-12-31T19:00:00');
  });
});

describe('dates outside records: every date the API answers is in the caller’s zone, without offset', () => {
  /** `instant` as the wall time of `zone`, read as if it were UTC: what an answered date should parse to. */
  const wall = (instant: number, zone: string) => {
    const text = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(instant);
    return Date.parse(`${text.replace(' ', 'T')}Z`);
  };
  type Reader = (key: string) => Promise<string[]>;
  /** Each case makes its thing (as the administrator, or as Tokyo), then gives how a user reads its dates. */
  const cases: [string, () => Promise<Reader>][] = [
    [
      'binaries/{guid}/get: CreatedTime, UpdatedTime',
      async () => {
        const uploaded = await uploadFile(`${stack.url}/api/binaries/upload?id=${site}`, tokyo.apiKey, {
          fileName: 'zoned.txt',
          bytes: Buffer.from('zoned'),
        });
        return async (key) => {
          const got = await post(`/api/binaries/${uploaded.body.Message}/get`, { ApiKey: key });
          const file = got.body.Response as { CreatedTime: string; UpdatedTime: string };
          return [file.CreatedTime, file.UpdatedTime];
        };
      },
    ],
    [
      'BackgroundTasks/Tasks/{taskId}/Get: CreatedTime',
      async () => {
        const started = await post(`/api/BackgroundTasks/${site}/RebuildSearchIndexes`, {
          ApiKey: tokyo.apiKey,
        });
        return async (key) => {
          const got = await post(`/api/BackgroundTasks/Tasks/${started.body.TaskId}/Get`, { ApiKey: key });
          return [(got.body.Response as { CreatedTime: string }).CreatedTime];
        };
      },
    ],
    [
      'the time of a LockedRecord refusal',
      async () => {
        const id = await createRecord(stack.url, admin, site, { Title: 'Locked in Tokyo' });
        await post(`/api/items/${id}/update`, { ApiKey: admin, Locked: true });
        return async (key) => {
          const refused = await post(`/api/items/${id}/update`, { ApiKey: key, Title: 'x' });
          return [/ at (.+)\.$/.exec(String(refused.body.Message))?.[1] ?? String(refused.body.Message)];
        };
      },
    ],
    [
      'exportsitepackage: PackageTime',
      async () => {
        const managed = await createSite(stack.url, admin, 0, {
          Title: 'Exported',
          ReferenceType: 'Results',
          Permissions: [`User,${tokyo.userId},255`, `User,${newYork.userId},255`],
        });
        return async (key) => {
          const got = await post(`/api/items/${managed}/exportsitepackage`, { ApiKey: key });
          return [(got.body.Response as { Package: { PackageTime: string } }).Package.PackageTime];
        };
      },
    ],
  ];

  it.each(cases)('%s', async (_case, make) => {
    const at = Date.now();
    const read = await make();
    for (const [user, zone] of [
      [tokyo, 'Asia/Tokyo'],
      [newYork, 'America/New_York'],
    ] as const) {
      for (const answered of await read(user.apiKey)) {
        expect(answered).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
        expect(Math.abs(Date.parse(`${answered}Z`) - wall(at, zone))).toBeLessThan(120_000);
      }
    }
  });
});

describe('the tenant zone', () => {
  it("users without a zone of their own read in their tenant's; null takes a user's own zone away", async () => {
    const created = await post('/api/tenants/create', {
      ApiKey: admin,
      TenantName: 'London',
      AdminLoginId: `london-${Date.now()}`,
      AdminPassword: 'correct horse battery staple',
      TimeZone: 'Europe/London',
    });
    expect(created.body.StatusCode).toBe(200);
    const manager = String(created.body.ApiKey);
    const table = await createSite(stack.url, manager, 0, { Title: 'T', ReferenceType: 'Results' });
    const id = await createRecord(stack.url, manager, table, { DateHash: { DateA: '2026-07-01T00:00:00Z' } });
    expect((await dates(id, manager)).DateA).toBe('2026-07-01T01:00:00');
    const traveller = await createUser(stack.url, manager, `traveller-${Date.now()}`, {
      TimeZone: 'Asia/Tokyo',
    });
    await post(`/api/items/${table}/updatesite`, {
      ApiKey: manager,
      Permissions: [`User,${traveller.userId},1`],
    });
    expect((await dates(id, traveller.apiKey)).DateA).toBe('2026-07-01T09:00:00');
    await post(`/api/users/${traveller.userId}/update`, { ApiKey: manager, TimeZone: null });
    expect((await dates(id, traveller.apiKey)).DateA).toBe('2026-07-01T01:00:00');
    expect((await dates(id, manager)).DateA).toBe('2026-07-01T01:00:00');
  });
});

describe('TimeZone values', () => {
  it.each([['Mars/Olympus'], ['+09:00'], ['Tokyo Standard Time'], [''], [9]])(
    '%j is a 400 naming TimeZone on users/create, users/update and tenants/create',
    async (zone) => {
      const create = await post('/api/users/create', {
        ApiKey: admin,
        LoginId: `z-${Date.now()}`,
        Name: 'z',
        TimeZone: zone,
      });
      const update = await post(`/api/users/${tokyo.userId}/update`, { ApiKey: admin, TimeZone: zone });
      const tenant = await post('/api/tenants/create', {
        ApiKey: admin,
        TenantName: 'Bad zone',
        AdminLoginId: `badzone-${Date.now()}`,
        TimeZone: zone,
      });
      for (const result of [create, update, tenant]) {
        expect(result.body.StatusCode).toBe(400);
        expect(JSON.stringify(result.body)).toContain('TimeZone');
      }
      const kept = await post(`/api/users/${tokyo.userId}/get`, { ApiKey: admin });
      expect((kept.body.Response as { Data: { TimeZone: string }[] }).Data[0]?.TimeZone).toBe('Asia/Tokyo');
    },
  );
});
