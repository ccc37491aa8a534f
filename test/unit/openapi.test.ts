import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument, tags } from '../../lib/openapi';
import { fallbackHandler, pathsOf, type Route, routes } from '../../lib/routes';
import { operationExamples } from '../../lib/routes/examples';
import { tempDir } from '../fixtures/temp-dir';

type Operation = {
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown }>; headers?: unknown }>;
};
const operationOf = (route: Route) =>
  openApiDocument().paths?.[route.path]?.[route.method.toLowerCase() as 'get' | 'post'] as Operation;

describe('openapi', () => {
  describe('openApiDocument', () => {
    const document = openApiDocument();

    it('is OpenAPI 3.1', () => {
      expect(document.openapi).toBe('3.1.0');
    });

    it.each(routes.map((route) => [route.method, route.path, route.handler]))(
      'documents %s %s',
      (method, path, handler) => {
        const operation = document.paths?.[path]?.[method.toLowerCase() as 'get' | 'post'];
        expect(operation?.operationId).toBe(handler);
        expect(operation?.responses?.['200'] ?? operation?.responses?.['302']).toBeDefined();
        expect(operation?.responses?.default).toBeDefined();
      },
    );

    // Generated from the route table: every path a route answers on (its aliases without {id} too), each
    // once, since paths match in any case and a case-only alias is the same path.
    const everyPath: (readonly [Route, string])[] = [];
    for (const route of routes as readonly Route[]) {
      for (const path of pathsOf(route)) {
        const same = ([r, p]: readonly [Route, string]) =>
          r.method === route.method && p.toLowerCase() === path.toLowerCase();
        if (!everyPath.some(same)) everyPath.push([route, path]);
      }
    }

    it.each(everyPath.map(([route, path]) => [route.method, path, route]))(
      'lists %s %s',
      (method, path, route) => {
        const operation = document.paths?.[path]?.[method.toLowerCase() as 'get' | 'post'];
        expect(operation?.operationId).toMatch(new RegExp(`^${route.handler}(-without-\\w+|-as-\\w+)?$`));
        const parameters = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        const inPath = (operation?.parameters ?? []).filter((p) => 'in' in p && p.in === 'path');
        expect(inPath.map((p) => ('name' in p ? p.name : undefined))).toEqual(parameters);
      },
    );

    it.each([
      ['/api/users/get', 'users-get-without-id'],
      ['/api/groups/get', 'groups-get-without-id'],
      ['/api/depts/get', 'depts-get-without-id'],
      ['/api/users/current', 'users-get-as-current'],
      ['/api/BackgroundTasks/RebuildSearchIndexes', 'backgroundtasks-rebuildsearchindexes-without-id'],
    ])('lists the tenant-wide %s', (path, operationId) => {
      expect(document.paths?.[path]?.post?.operationId).toBe(operationId);
    });

    it('documents no path that has no route, and none twice', () => {
      const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
        Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(documented.sort()).toEqual(everyPath.map(([route, path]) => `${route.method} ${path}`).sort());
    });

    // Shared schemas are written once under components and referenced: the items operations used to
    // repeat the whole record (1.2 MB pretty-printed); the document is now about a third of that (each
    // operation still carries its own ~3 KB of error answers: issue 26's routes took it past 400 KB, issue 27's
    // past 450 KB).
    it('names shared schemas once and refers to them', () => {
      const names = Object.keys(document.components?.schemas ?? {});
      expect(names).toEqual(
        expect.arrayContaining(['RecordWrite', 'Attachment', 'NumValue', 'ServerScript', 'ApiRequest']),
      );
      const create = JSON.stringify(document.paths?.['/api/items/{id}/create']);
      expect(create).toContain('"$ref":"#/components/schemas/RecordWrite"');
      expect(JSON.stringify(document.components?.schemas?.RecordWrite)).toContain(
        '"$ref":"#/components/schemas/NumValue"',
      );
      expect(JSON.stringify(document, null, 2).length).toBeLessThan(480_000);
    });

    it('describes the path id of every {id} route', () => {
      const operation = document.paths?.['/api/users/{id}/get']?.post;
      expect(operation?.parameters).toEqual([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
      ]);
    });
  });

  describe('operations', () => {
    it.each(routes.map((route) => [route.handler, route] as const))(
      '%s: one tag of the document',
      (_h, route) => {
        const operation = operationOf(route);
        expect(operation.tags).toHaveLength(1);
        expect(tags.map((tag) => tag.name)).toContain(operation.tags?.[0]);
      },
    );

    it.each([
      ['users-authenticate', []],
      ['openapi', []],
      ['users-signout', []],
      ['binaries-upload', [{ bearerApiKey: [] }, { loginCookie: [] }]],
      ['binaries-guid-upload', [{ bearerApiKey: [] }, { loginCookie: [] }]],
      ['binaries-download', [{ bearerApiKey: [] }, { loginCookie: [] }]],
      ['items-get', [{ loginCookie: [] }, {}]],
      ['users-create', [{ loginCookie: [] }, {}]],
    ])('%s declares its security', (handler, security) => {
      const route = routes.find((r) => r.handler === handler) as Route;
      expect(operationOf(route).security).toEqual(security);
    });

    it('takes the login as JSON or as an HTML form', () => {
      const route = routes.find((r) => r.handler === 'users-authenticate') as Route;
      expect(Object.keys(operationOf(route).requestBody?.content ?? {})).toEqual([
        'application/json',
        'application/x-www-form-urlencoded',
      ]);
    });

    it.each(routes.map((route) => [route.handler, route] as const))(
      '%s: an example request and answer that its own schemas accept',
      (handler, route: Route) => {
        const example = operationExamples[handler];
        expect(example).toBeDefined();
        const operation = operationOf(route);
        if (route.request) {
          for (const content of Object.values(operation.requestBody?.content ?? {})) {
            expect(content.example).toEqual(example?.request);
          }
          if (route.requestType !== 'multipart')
            expect(route.request.safeParse(example?.request).error).toBeUndefined();
        }
        if (route.redirect) {
          expect(JSON.stringify(operation.responses?.['302']?.headers)).toContain(String(example?.answer));
        } else {
          expect(
            operation.responses?.['200']?.content?.[route.produces ?? 'application/json']?.example,
          ).toEqual(example?.answer);
          expect(route.response.safeParse(example?.answer).error).toBeUndefined();
        }
      },
    );
  });

  it('is written by `npm run --silent openapi` as pure JSON on stdout, or to a file', () => {
    const root = resolve(import.meta.dirname, '../..');
    const printed = spawnSync('npm', ['run', '--silent', 'openapi'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(printed.status).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const file = join(tempDir('kiroku-openapi-'), 'openapi.json');
    expect(spawnSync('npm', ['run', '--silent', 'openapi', '--', file], { cwd: root }).status).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(printed.stdout));
  }, 30_000);

  it('has a handler module for every route and the fallback', async () => {
    for (const name of [...routes.map((route) => route.handler), fallbackHandler]) {
      const module = (await import(`../../functions/${name}.ts`)) as { handler?: unknown };
      expect(typeof module.handler, name).toBe('function');
    }
  });
});
