import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { logger } from '../../lib/log';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// The time limit holds whatever a script does (issue 23): a built-in that never checks the engine's
// interrupt handler, and the lookups a script waits for, are inside it; and a runaway script never holds
// up the other requests of the local runtime, which serves them all from this one process.

/**
 * What a request may take past its limit, and another request sent meanwhile at all. Generous for a
 * two-core machine shared with other work (measured here at a load average of 30: 0.4 to 3.9 s past the
 * limit, 0.75 to 0.85 s for the other request); before the fix both took the built-in's whole 13 s or more.
 */
const MARGIN_MS = 4000;
const MEANWHILE_MS = 1000;

let stack: Stack;
let admin: string;
let writer: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const withScripts = (ServerScripts: object[]) =>
  createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    Permissions: [`User,${writer.userId},15`],
    SiteSettings: { ServerScripts },
  });
const failures = () =>
  vi
    .mocked(logger.error)
    .mock.calls.filter(([message]) => message === 'server script failed')
    .map(([, extra]) => (extra as { reason: string }).reason);
const timed = async <T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
};

/** QuickJS's string search is quadratic C that never checks the interrupt handler: 13 s on main. */
const QUADRATIC = "'a'.repeat(180000).indexOf('a'.repeat(90000) + 'b');";

let calm: number;

/**
 * A request with a trivial script: the worker is warm afterwards, as after any first request with
 * scripts or a worker's replacement, so that what a test measures is the limit, not a worker's start.
 */
async function warmUp(): Promise<void> {
  const answer = await post(`/api/items/${calm}/update`, { ApiKey: writer.apiKey });
  expect(answer.body.StatusCode).toBe(200);
}

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  const site = await withScripts([{ Body: 'model.ClassA = "calm";', BeforeUpdate: true }]);
  calm = await createRecord(stack.url, writer.apiKey, site);
  await post('/api/sessions/set', { ApiKey: admin, SessionKey: 'k', SessionValue: 'v', SavePerUser: true });
});
beforeEach(() => {
  useSettings({
    ...loadSettings(),
    Script: { ...loadSettings().Script, ServerScript: true, ServerScriptTimeOut: 1000 },
  });
  vi.restoreAllMocks();
  vi.spyOn(logger, 'error');
});
afterAll(() => stack.close());

describe('server-script time limits', () => {
  it('stop a script stuck in one built-in at its TimeOut, while other requests are answered', async () => {
    const siteId = await withScripts([
      { Name: 'quadratic', Body: QUADRATIC, BeforeUpdate: true, TimeOut: 200 },
    ]);
    const id = await createRecord(stack.url, writer.apiKey, siteId, { Title: 'kept' });
    await warmUp();
    const stuck = timed(() => post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Title: 'lost' }));
    // Sent while the script runs: due 150 ms after the update, answered without waiting for it.
    const due = Date.now() + 150;
    await new Promise((resolve) => setTimeout(resolve, 150));
    const meanwhile = await post('/api/sessions/get', { ApiKey: admin, SessionKey: 'k', SavePerUser: true });
    expect(meanwhile.body.StatusCode).toBe(200);
    expect(Date.now() - due).toBeLessThan(MEANWHILE_MS);

    const { value: answer, ms } = await stuck;
    expect(answer.status).toBe(500);
    expect(ms).toBeLessThan(200 + MARGIN_MS);
    expect(failures()).toEqual([expect.stringMatching(/"quadratic".*ran out of time/)]);
    const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
    expect(read.body.Response).toMatchObject({ Data: [{ Title: 'kept', Ver: 1 }] });
  });

  it("stop it at the request's ServerScriptTimeOut when the script has no TimeOut of its own", async () => {
    const siteId = await withScripts([{ Name: 'quadratic', Body: QUADRATIC, WhenloadingRecord: true }]);
    const id = await createRecord(stack.url, writer.apiKey, siteId);
    // Warmed under the 1,000 ms limit: under the whole suite's load the warm-up itself once took over 300 ms.
    await warmUp();
    useSettings({
      ...loadSettings(),
      Script: { ...loadSettings().Script, ServerScript: true, ServerScriptTimeOut: 300 },
    });
    const { value: answer, ms } = await timed(() => post(`/api/items/${id}/get`, { ApiKey: writer.apiKey }));
    expect(answer.status).toBe(500);
    expect(ms).toBeLessThan(300 + MARGIN_MS);
  });

  it('leave the next request with scripts a working engine', async () => {
    const siteId = await withScripts([{ Body: QUADRATIC, BeforeUpdate: true, TimeOut: 100 }]);
    const id = await createRecord(stack.url, writer.apiKey, siteId);
    expect((await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey })).status).toBe(500);
    await warmUp();
  });

  it('count the lookups a page of WhenloadingRecord scripts waits for', async () => {
    // 99 distinct GetClosestSite calls per record, 40 records: thousands of reads, far over 1,000 ms.
    const siteId = await withScripts([
      {
        Name: 'closest',
        Body: "for (let i = 0; i < 99; i++) items.GetClosestSite('nowhere-' + i);",
        WhenloadingRecord: true,
      },
    ]);
    for (let batch = 0; batch < 4; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, at) =>
          createRecord(stack.url, writer.apiKey, siteId, { Title: `r${batch * 10 + at}` }),
        ),
      );
    }
    await warmUp();
    const { value: answer, ms } = await timed(() =>
      post(`/api/items/${siteId}/get`, { ApiKey: writer.apiKey }),
    );
    expect(answer.status).toBe(500);
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(1000 + MARGIN_MS);
    expect(failures()).toEqual([expect.stringMatching(/"closest".*ran out of time/)]);
  });
});
