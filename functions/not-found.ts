import { basePath } from '../lib/config/base-path';
import { MethodNotAllowedError, NotFoundError } from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { pathsOf, routes } from '../lib/routes';
import { fallback } from '../lib/routes/meta';

const patterns = routes
  .flatMap((route) => pathsOf(route))
  .map((path) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`));

/**
 * API Gateway's `$default` route: a path no route has is 404; a path with another method is 405. A path
 * outside the base path is no path of the API at all: 404.
 */
export const handler = endpoint(fallback, async ({ event }) => {
  const { method } = event.requestContext.http;
  const base = basePath();
  const inside = base === '' || event.rawPath === base || event.rawPath.startsWith(`${base}/`);
  const path = inside ? event.rawPath.slice(base.length) || '/' : undefined;
  if (path !== undefined && patterns.some((pattern) => pattern.test(path))) {
    throw new MethodNotAllowedError(`${method} ${path}`);
  }
  throw new NotFoundError(`no route for ${method} ${event.rawPath}`);
});
