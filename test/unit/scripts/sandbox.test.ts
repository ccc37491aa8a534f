import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../lib/accounts/principal';
import { loadSettings, useSettings } from '../../../lib/config/settings';
import { noScripts } from '../../../lib/items/record-scripts';
import type { HostCall } from '../../../lib/scripts/job';
import { RequestScripts, type RunOutcome } from '../../../lib/scripts/runner';
import type { Site } from '../../../lib/sites/model';
import type { ServerScript } from '../../../lib/sites/site-scripts';

// The sandbox as one request's scripts see it: limits and isolation. The record paths, permissions and
// lookups against the real stack are in test/integration/server-scripts*.test.ts.

const principal: Principal = {
  tenantId: 1,
  userId: 7,
  loginId: 'alice',
  name: 'Alice',
  tenantManager: false,
  privileged: false,
  via: 'cookie',
};

function siteWith(scripts: Partial<ServerScript>[]): Site {
  return {
    siteId: 10,
    tenantId: 1,
    title: 'Site',
    referenceType: 'Issues',
    parentId: 0,
    inheritPermission: 10,
    permissions: [],
    siteSettings: { ServerScripts: scripts.map((script, index) => ({ Id: index + 1, ...script })) },
    creator: 7,
    updator: 7,
    createdAt: 0,
    updatedAt: 0,
    ver: 1,
  };
}

function request(lookup = async (_call: HostCall): Promise<unknown> => null, rawQueryString = '') {
  return new RequestScripts(
    {
      principal,
      event: { rawQueryString, requestContext: { http: { method: 'POST' } } },
      action: 'update',
      id: 42,
    },
    () => noScripts,
    () => lookup,
  );
}

async function runOne(body: string, options: Partial<ServerScript> = {}): Promise<RunOutcome | undefined> {
  const site = siteWith([{ Name: 'test', Body: body, BeforeUpdate: true, ...options }]);
  return request().run('BeforeUpdate', site, { Title: 'a', NumA: 1 });
}

const done = (outcome: RunOutcome | undefined) => {
  if (outcome?.kind !== 'done') throw new Error(`not done: ${JSON.stringify(outcome)}`);
  return outcome;
};

// The first run starts the script worker; the limits are measured on a warm one, as in production.
beforeAll(async () => {
  await runOne('model.NumA = 1;');
}, 60_000);
afterEach(() => useSettings(undefined));

/** Time past a limit the tests accept: the machine is shared and loaded; before issue 23 it was 13 s. */
const MARGIN_MS = 2000;

describe('server-script sandbox', () => {
  describe('limits', () => {
    it('stops a script stuck in a built-in that never checks the interrupt handler', async () => {
      const started = Date.now();
      const outcome = await runOne("'a'.repeat(180000).indexOf('a'.repeat(90000) + 'b');", { TimeOut: 200 });
      expect(Date.now() - started).toBeLessThan(200 + MARGIN_MS);
      expect(outcome).toEqual({ kind: 'failed', reason: expect.stringMatching(/"test".*ran out of time/) });
      expect(done(await runOne('model.NumA = 2;')).model.NumA).toBe(2);
    });

    it('counts the host calls a script waits for against the time limit', async () => {
      useSettings({
        ...loadSettings(),
        Script: { ...loadSettings().Script, ServerScript: true, ServerScriptTimeOut: 500 },
      });
      const slow = async () => new Promise((resolve) => setTimeout(() => resolve([{ Title: 'x' }]), 20));
      const site = siteWith([
        { Name: 'test', Body: 'for (let i = 0; i < 99; i++) items.Get(i);', BeforeUpdate: true },
      ]);
      const started = Date.now();
      const outcome = await request(slow).run('BeforeUpdate', site, { Title: '' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
      expect(Date.now() - started).toBeLessThan(500 + MARGIN_MS);
      expect(outcome).toEqual({ kind: 'failed', reason: expect.stringMatching(/"test".*ran out of time/) });
    });

    it('shares one deadline between the conditions of a request, the time between them included', async () => {
      useSettings({
        ...loadSettings(),
        Script: { ...loadSettings().Script, ServerScript: true, ServerScriptTimeOut: 1000 },
      });
      const site = siteWith([
        { Name: 'before', Body: 'model.Title = "b";', BeforeUpdate: true },
        { Name: 'after', Body: 'model.Title = "a";', AfterUpdate: true },
      ]);
      const scripts = request();
      expect((await scripts.run('BeforeUpdate', site, { Title: '' }))?.kind).toBe('done');
      // The save between Before and After (here a pause) is the request's time too.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await scripts.run('AfterUpdate', site, { Title: '' })).toEqual({
        kind: 'failed',
        reason: expect.stringMatching(/"after".*ran out of time/),
      });
      expect((await request().run('AfterUpdate', site, { Title: '' }))?.kind).toBe('done');
    });

    it('fails the run with the error of a host call that fails', async () => {
      const site = siteWith([{ Body: 'items.GetSite(3);', BeforeUpdate: true }]);
      const failing = async () => {
        throw new Error('storage is down');
      };
      await expect(request(failing).run('BeforeUpdate', site, { Title: '' })).rejects.toThrow(
        'storage is down',
      );
    });

    it('stops an endless loop at the script TimeOut, naming the script', async () => {
      const started = Date.now();
      const outcome = await runOne('while (true) {}', { TimeOut: 200 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(outcome).toEqual({ kind: 'failed', reason: expect.stringMatching(/"test".*ran out of time/) });
    });

    it.each([
      ['an array of strings', 'const a = []; for (;;) a.push("x".repeat(1000) + Math.random());'],
      ['doubling a string', 'let s = "x"; for (;;) s += s;'],
      ['typed arrays', 'const b = []; for (;;) b.push(new Uint8Array(1 << 20));'],
      ['one huge buffer', 'new ArrayBuffer(1 << 30);'],
    ])('stops a memory bomb (%s) as a failure', async (_, body) => {
      const outcome = await runOne(body, { TimeOut: 5000 });
      expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/"test"/) });
      // The engine answers the next run normally.
      expect(done(await runOne('model.NumA = 2;')).model.NumA).toBe(2);
    });

    it.each([
      ['unbounded recursion', 'function f() { return f() + 1; } f();'],
      ['deep JSON', 'JSON.parse("[".repeat(100000));'],
      [
        'deep nesting stringified',
        'let o = {}; for (let i = 0; i < 100000; i++) o = { o }; JSON.stringify(o);',
      ],
    ])('stops %s at the stack limit', async (_, body) => {
      expect(await runOne(body)).toMatchObject({ kind: 'failed' });
      expect(done(await runOne('model.NumA = 3;')).model.NumA).toBe(3);
    });

    it('reports a throw as a failure naming the script, without the stack', async () => {
      const outcome = await runOne('throw new TypeError("boom")');
      expect(outcome).toEqual({ kind: 'failed', reason: expect.stringContaining('"test"') });
      expect(outcome).toMatchObject({ reason: expect.stringContaining('TypeError: boom') });
    });

    it('with TryCatch, catches and logs a throw and goes on', async () => {
      const outcome = await runOne('model.NumA = 5; throw new Error("x");', { TryCatch: true });
      expect(done(outcome).model.NumA).toBe(5);
    });
  });

  describe('isolation', () => {
    it.each([
      ['require', 'typeof require'],
      ['process', 'typeof process'],
      ['fetch', 'typeof fetch'],
      ['setTimeout', 'typeof setTimeout'],
      ['module', 'typeof module'],
      ['std (quickjs-libc)', 'typeof std'],
      ['os (quickjs-libc)', 'typeof os'],
      ['import()', 'typeof import("fs")'],
    ])('has no %s', async (_, expression) => {
      const outcome = await runOne(`model.Title = String(${expression});`);
      if (expression.startsWith('typeof import')) {
        // A dynamic import has no module loader to reach: it is a promise that rejects.
        expect(done(outcome).model.Title).toBe('object');
      } else {
        expect(done(outcome).model.Title).toBe('undefined');
      }
    });

    it('finds only the language and the host objects on the global object', async () => {
      const body = `
        const names = Object.getOwnPropertyNames(Function('return this')());
        model.Title = names.filter((name) => !/^[A-Z]/.test(name)).sort().join(',');`;
      const names = String(done(await runOne(body)).model.Title).split(',');
      expect(names).toEqual(
        expect.arrayContaining([
          'context',
          'items',
          'model',
          'saved',
          'siteSettings',
          'notifications',
          'httpClient',
          'logs',
          'utilities',
          'globalThis',
        ]),
      );
      for (const name of names) {
        expect(name).toMatch(
          /^(context|items|model|saved|siteSettings|notifications|httpClient|logs|utilities|globalThis|__kiroku\w+|parseInt|parseFloat|isNaN|isFinite|decodeURI|decodeURIComponent|encodeURI|encodeURIComponent|escape|unescape|eval|queueMicrotask|undefined|NaN|Infinity)$/,
        );
      }
    });

    it('reaches nothing through constructors of host functions', async () => {
      const body = `
        const F = context.QueryStrings.Data.constructor;
        const g = F('return this')();
        model.Title = [typeof g.process, typeof g.require, g === globalThis].join(',');`;
      expect(done(await runOne(body)).model.Title).toBe('undefined,undefined,true');
    });

    it('does not let prototype tampering reach the next request', async () => {
      const first = await runOne(
        'Object.prototype.polluted = "yes"; Array.prototype.map = null; globalThis.leak = 1; JSON.stringify = null;',
      );
      expect(first?.kind).toBe('done');
      const second = done(
        await runOne('model.Title = [typeof ({}).polluted, typeof [].map, typeof leak].join(",");'),
      );
      expect(second.model.Title).toBe('undefined,function,undefined');
    });

    it('keeps siteSettings and saved read-only and the host objects in place', async () => {
      const body = `
        siteSettings.ServerScripts = []; saved.Title = 'x'; model = {}; context = {};
        model.Title = [siteSettings.ServerScripts.length, saved.Title, typeof context.Log].join(',');`;
      expect(done(await runOne(body)).model.Title).toBe('1,,function');
    });
  });

  describe('one request', () => {
    it('shares UserData between its scripts and runs them in list order', async () => {
      const site = siteWith([
        { Name: 'first', Body: 'context.UserData.trail = "a";', BeforeUpdate: true },
        {
          Name: 'second',
          Body: 'context.UserData.trail += "b"; model.Title = context.UserData.trail;',
          BeforeUpdate: true,
        },
      ]);
      const scripts = request();
      expect(done(await scripts.run('BeforeUpdate', site, { Title: '' })).model.Title).toBe('ab');
      const later = siteWith([{ Body: 'model.Title = context.UserData.trail;', AfterUpdate: true }]);
      expect(done(await scripts.run('AfterUpdate', later, { Title: '' })).model.Title).toBe('ab');
      expect(done(await request().run('AfterUpdate', later, { Title: 'x' })).model.Title).toBeUndefined();
    });

    it('answers host calls while the script waits, running it once', async () => {
      const asked: HostCall[] = [];
      const scripts = request(async (call) => {
        asked.push(call);
        return [{ Title: `record ${call.args[0]}` }];
      });
      const site = siteWith([
        {
          Body: `context.Log('before'); context.UserData.n = (context.UserData.n || 0) + 1;
                 model.Title = items.Get(5)[0].Title + ' / ' + items.Get(6)[0].Title + ' / ' + context.UserData.n;`,
          BeforeUpdate: true,
        },
      ]);
      const outcome = done(await scripts.run('BeforeUpdate', site, { Title: '' }));
      expect(outcome.model.Title).toBe('record 5 / record 6 / 1');
      expect(asked).toEqual([
        { name: 'items.Get', args: [5] },
        { name: 'items.Get', args: [6] },
      ]);
    });
  });
});
