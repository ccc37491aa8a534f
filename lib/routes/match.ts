import type { Route } from './route';
import { pathsOf } from './route';

/**
 * Path matching against the route table, in the two ways a request meets it:
 *
 * - `exact`: API Gateway HTTP API's own matching. Literal segments compare case-sensitively, `{name}` is
 *   one non-empty segment, the most specific route wins. The local gateway plays API Gateway with it.
 * - `ignoreCase`: the reference's (ASP.NET routing compares every literal segment ordinally ignoring
 *   case; CONTRACT section 1). A request API Gateway sends to `$default` is matched this way, by the
 *   fallback function in AWS (functions/route-fallback.ts) and by the local gateway, so that
 *   `/api/SESSIONS/get` reaches the same handler as `/api/sessions/get` in both.
 *
 * Only literal segments fold case: a path's values (a GUID, an id, an asset's name) reach the handler as
 * they were sent, and keep their own rules there.
 */

/** What matching needs of an entry: its method and its path's segments. */
export interface Pattern {
  readonly method: string;
  readonly path: string;
  readonly segments: readonly string[];
}

export type CompiledRoute = Route & Pattern;

export interface RouteMatch<R extends Pattern = CompiledRoute> {
  readonly route: R;
  readonly parameters: Record<string, string>;
}

/** One entry per path a route answers on (its own and its aliases), split into segments once. */
export function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  return routes.flatMap((route) =>
    pathsOf(route).map((path) => ({ ...route, path, segments: path.split('/') })),
  );
}

/** A path as a pattern of the given method. */
export function patternOf(method: string, path: string): Pattern {
  return { method, path, segments: path.split('/') };
}

/** The route `method path` reaches, with its path parameters; undefined when none does. */
export function matchRoute<R extends Pattern>(
  table: readonly R[],
  method: string | undefined,
  path: string,
  options: { readonly ignoreCase?: boolean } = {},
): RouteMatch<R> | undefined {
  const segments = path.split('/');
  const literal = options.ignoreCase
    ? (pattern: string, value: string) => pattern.toLowerCase() === value.toLowerCase()
    : (pattern: string, value: string) => pattern === value;
  const candidates: RouteMatch<R>[] = [];
  for (const route of table) {
    if ((method !== undefined && route.method !== method) || route.segments.length !== segments.length)
      continue;
    const parameters: Record<string, string> = {};
    const matched = route.segments.every((pattern, index) => {
      const value = safeDecode(segments[index] ?? '');
      if (value === undefined) return false;
      if (!isParameter(pattern)) return literal(pattern, value);
      if (!value) return false;
      parameters[pattern.slice(1, -1)] = value;
      return true;
    });
    if (matched) candidates.push({ route, parameters });
  }
  // A literal segment beats a parameter at the first position where two matching routes differ.
  const rank = (route: Pattern) => route.segments.map((part) => (isParameter(part) ? '1' : '0')).join('');
  return candidates.sort((a, b) => rank(a.route).localeCompare(rank(b.route)))[0];
}

function isParameter(segment: string): boolean {
  return /^\{[^}]+\}$/.test(segment);
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route key API Gateway gives a request of this route (`POST /api/items/{id}/get`). */
export function routeKeyOf(route: Pattern): string {
  return `${route.method} ${route.path}`;
}
