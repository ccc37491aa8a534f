import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/routes';
import { fallback } from '../../lib/routes/meta';
import { layerOf, upwardImports } from './layers';

describe('the layers (docs/contributing.md, "Layers")', () => {
  it('has no import that points up a layer', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('places every module of lib/ in a layer', () => {
    const unplaced = readdirSync('lib', { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => `lib/${path}`)
      .filter((path) => layerOf(path) === undefined);
    expect(unplaced).toEqual([]);
  });
});

describe('functions/', () => {
  it.each([...routes, fallback].map((route) => [route.handler, route] as const))(
    '%s builds its stack from its own route entry',
    async (name, route) => {
      const module: { handler?: { route?: unknown } } = await import(`../../functions/${name}.ts`);
      expect(module.handler?.route).toBe(route);
    },
  );
});
