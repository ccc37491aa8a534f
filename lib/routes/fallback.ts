import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routes } from './index';
import {
  type CompiledRoute,
  compileRoutes,
  matchRoute,
  patternOf,
  type RouteMatch,
  routeKeyOf,
} from './match';
import { operationName, unavailableOperations } from './unavailable';

/**
 * What a request that API Gateway's case-sensitive routing sent to `$default` is, decided in one place
 * for the fallback function (AWS) and the local gateway, both from the one route table:
 *
 * - `route`: a route of the table, matched ignoring the case of its literal segments: it is run as if
 *   API Gateway had routed it (dispatchedEvent).
 * - `unavailable`: an operation of the reference that Kiroku does not offer: a 404 naming it.
 * - `method`: a path of the table with another method: 405.
 * - `none`: the generic 404.
 */
export type Fallback =
  | { readonly kind: 'route'; readonly match: RouteMatch }
  | { readonly kind: 'unavailable'; readonly operation: string }
  | { readonly kind: 'method' }
  | { readonly kind: 'none' };

const table = compileRoutes(routes);
const unavailable = unavailableOperations.map((path) => patternOf('POST', path));

/** `path` is the request's path below the base path. */
export function resolveFallback(
  method: string,
  path: string,
  routeTable: readonly CompiledRoute[] = table,
): Fallback {
  const match = matchRoute(routeTable, method, path, { ignoreCase: true });
  if (match) return { kind: 'route', match };
  const missing = matchRoute(unavailable, undefined, path, { ignoreCase: true });
  if (missing) return { kind: 'unavailable', operation: operationName(missing.route.path) };
  if (matchRoute(routeTable, undefined, path, { ignoreCase: true })) return { kind: 'method' };
  return { kind: 'none' };
}

/**
 * The event API Gateway would have built had the path been spelt as the route table spells it: the
 * route's key and path parameters; rawPath and everything else stay as the caller sent them.
 */
export function dispatchedEvent(event: APIGatewayProxyEventV2, match: RouteMatch): APIGatewayProxyEventV2 {
  const routeKey = routeKeyOf(match.route);
  const { pathParameters: _none, ...rest } = event;
  return {
    ...rest,
    routeKey,
    requestContext: { ...event.requestContext, routeKey },
    ...(Object.keys(match.parameters).length > 0 && { pathParameters: { ...match.parameters } }),
  };
}
