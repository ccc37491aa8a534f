import { describe, expect, it } from 'vitest';
import { routes } from '../../../lib/routes';
import { resolveFallback } from '../../../lib/routes/fallback';
import { compileRoutes, matchRoute, patternOf } from '../../../lib/routes/match';
import { unavailableOperations } from '../../../lib/routes/unavailable';

const table = compileRoutes(routes);
const spellings = {
  upper: (s: string) => s.toUpperCase(),
  lower: (s: string) => s.toLowerCase(),
  mixed: (s: string) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
};
const fill = (path: string, spell: (s: string) => string) =>
  path
    .split('/')
    .map((segment) => (/^\{\w+\}$/.test(segment) ? '0123456789ABCDEF0123456789abcdef' : spell(segment)))
    .join('/');

describe('lib/routes/match', () => {
  describe('matchRoute', () => {
    it('compares literal segments exactly unless told to ignore case', () => {
      expect(matchRoute(table, 'POST', '/api/Sessions/get')).toBeUndefined();
      expect(matchRoute(table, 'POST', '/api/Sessions/get', { ignoreCase: true })?.route.handler).toBe(
        'sessions-get',
      );
    });

    it('keeps a value as it was sent', () => {
      const match = matchRoute(table, 'GET', '/BINARIES/abcDEF/Show', { ignoreCase: true });
      expect(match?.parameters).toEqual({ guid: 'abcDEF' });
    });

    // In AWS a request meets API Gateway's exact matching first and the fallback's only when that finds
    // nothing; the two steps must pick what matching ignoring case alone picks, or a mis-cased literal
    // could be taken by another route's {parameter}.
    it.each(
      table.flatMap((route) =>
        Object.entries(spellings).map(([name, spell]) => [route.method, route.path, name, spell] as const),
      ),
    )('%s %s in %s case: exact matching finds nothing else', (method, path, _name, spell) => {
      const sent = fill(path, spell);
      const exact = matchRoute(table, method, sent);
      const folded = matchRoute(table, method, sent, { ignoreCase: true });
      expect(folded?.route.handler).toBe(table.find((r) => r.path === path)?.handler);
      if (exact) expect(exact.route.handler).toBe(folded?.route.handler);
    });
  });

  describe('unavailableOperations', () => {
    it.each(unavailableOperations.map((path) => [path]))('%s is no path of the route table', (path) => {
      expect(
        matchRoute(
          table,
          undefined,
          fill(path, (s) => s),
          { ignoreCase: true },
        ),
      ).toBeUndefined();
      expect(
        resolveFallback(
          'POST',
          fill(path, (s) => s),
        ).kind,
      ).toBe('unavailable');
    });

    it('lists each operation once', () => {
      const folded = unavailableOperations.map((path) => path.toLowerCase());
      expect(new Set(folded).size).toBe(folded.length);
      expect(patternOf('POST', '/api/extended/sql').segments).toEqual(['', 'api', 'extended', 'sql']);
    });
  });
});
