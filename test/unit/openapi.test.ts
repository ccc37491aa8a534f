import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi';
import { fallbackHandler, routes } from '../../lib/routes';

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

    it('documents no path that has no route', () => {
      const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
        Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    });

    it('describes the path id of every {id} route', () => {
      const operation = document.paths?.['/api/users/{id}/get']?.post;
      expect(operation?.parameters).toEqual([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
      ]);
    });
  });

  it('has a handler module for every route and the fallback', async () => {
    for (const name of [...routes.map((route) => route.handler), fallbackHandler]) {
      const module = (await import(`../../functions/${name}.ts`)) as { handler?: unknown };
      expect(typeof module.handler, name).toBe('function');
    }
  });
});
