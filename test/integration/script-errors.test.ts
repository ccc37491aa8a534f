import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useClock } from '../../lib/clock';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { MAX_SCRIPT_ERRORS } from '../../lib/scripts/script-errors';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * A site's last script failures (issue 27 item 6): kept when a script fails (lib/scripts/runner.ts
 * `failed`), at most 20, newest first, and readable by the site's managers only.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let writer: TestUser;
let siteManager: TestUser;
let site: number;
let clock = Date.parse('2026-04-01T00:00:00Z');

const errorsOf = (siteId: number, apiKey = admin) =>
  call(stack.url, `/api/items/${siteId}/scripterrors/get`, { ApiKey: apiKey });
type ErrorView = { Time: string; SiteId: number; Condition: string; Script: string; Reason: string };

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `se-writer-${Date.now()}`);
  siteManager = await createUser(stack.url, admin, `se-manager-${Date.now()}`);
  site = await createSite(stack.url, admin, 0, {
    Title: 'Failing scripts',
    ReferenceType: 'Issues',
    // Writer: Read, Create, Update, Delete; site manager: everything (ManageSite included).
    Permissions: [`User,${writer.userId},15`, `User,${siteManager.userId},255`],
    SiteSettings: {
      ServerScripts: [
        {
          Name: 'check-dates',
          Body: 'if (model.Title === "bad") throw new Error("no start date for " + model.Title);',
          BeforeCreate: true,
        },
        { Title: 'slow', Body: 'if (model.Title === "slow") while (true) {}', AfterCreate: true },
      ],
    },
  });
});
beforeEach(() => {
  useSettings({
    ...loadSettings(),
    Script: { ...loadSettings().Script, ServerScript: true, ServerScriptTimeOut: 300 },
  });
  useClock(() => clock);
});
afterAll(() => stack.close());

describe('POST /api/items/{id}/scripterrors/get', () => {
  it('answers nothing for a site whose scripts never failed', async () => {
    const answer = await errorsOf(site);
    expect(answer.body).toEqual({ StatusCode: 200, Response: { Errors: [] } });
  });

  it('keeps a Before failure (the create refused) and an After one (the create kept), newest first', async () => {
    clock = Date.parse('2026-04-01T01:00:00Z');
    const refused = await call(stack.url, `/api/items/${site}/create`, {
      ApiKey: writer.apiKey,
      Title: 'bad',
    });
    expect(refused.status).toBe(500);
    clock = Date.parse('2026-04-01T01:05:00Z');
    await createRecord(stack.url, writer.apiKey, site, { Title: 'slow' });
    const answer = await errorsOf(site, siteManager.apiKey);
    expect(answer.status).toBe(200);
    const errors = (answer.body.Response as { Errors: ErrorView[] }).Errors;
    // The site manager reads times in Service.TimeZoneDefault (Asia/Tokyo).
    expect(errors).toEqual([
      {
        Time: '2026-04-01T10:05:00',
        SiteId: site,
        Condition: 'AfterCreate',
        Script: 'slow',
        Reason: expect.stringContaining('ran out of time'),
      },
      {
        Time: '2026-04-01T10:00:00',
        SiteId: site,
        Condition: 'BeforeCreate',
        Script: 'check-dates',
        Reason: expect.stringContaining('no start date for bad'),
      },
    ]);
  });

  it(`keeps the last ${MAX_SCRIPT_ERRORS} only`, async () => {
    const busy = await createSite(stack.url, admin, 0, {
      ReferenceType: 'Issues',
      SiteSettings: {
        ServerScripts: [
          { Name: 'always', Body: 'throw new Error("run " + model.Title);', AfterCreate: true },
        ],
      },
    });
    for (let index = 1; index <= MAX_SCRIPT_ERRORS + 3; index++) {
      clock += 1000;
      await createRecord(stack.url, admin, busy, { Title: String(index) });
    }
    const errors = ((await errorsOf(busy)).body.Response as { Errors: ErrorView[] }).Errors;
    expect(errors).toHaveLength(MAX_SCRIPT_ERRORS);
    expect(errors[0]?.Reason).toContain(`run ${MAX_SCRIPT_ERRORS + 3}`);
    expect(errors.at(-1)?.Reason).toContain('run 4');
  });

  it.each([
    ['a user with Read, Create and Update but not ManageSite', () => writer.apiKey, () => site, 403],
    ['a user who cannot read the site', () => accounts.user.apiKey, () => site, 404],
    ["another tenant's manager", () => accounts.other.apiKey, () => site, 404],
    ['a site that does not exist', () => admin, () => 99_999_999, 404],
    ['no key', () => '', () => site, 401],
  ])('refuses %s', async (_, key, siteId, status) => {
    const answer = await call(
      stack.url,
      `/api/items/${siteId()}/scripterrors/get`,
      key() ? { ApiKey: key() } : {},
    );
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ StatusCode: status });
  });
});
