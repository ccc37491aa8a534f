import * as z from 'zod';
import { endpoint } from '../lib/http/api';
import { MethodNotAllowedError, NotFoundError } from '../lib/http/errors';
import { pathsOf, routes } from '../lib/routes';

const patterns = routes
  .flatMap((route) => pathsOf(route))
  .map((path) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`));

/** API Gateway's `$default` route: a path no route has is 404; a path with another method is 405. */
export const handler = endpoint(
  { schema: z.object({}), auth: false, parseBody: false, checkMime: false },
  async ({ event }) => {
    const path = stripBase(event.rawPath);
    if (patterns.some((pattern) => pattern.test(path)))
      throw new MethodNotAllowedError(`${event.requestContext.http.method} ${path}`);
    throw new NotFoundError(`no route for ${event.requestContext.http.method} ${path}`);
  },
);

function stripBase(path: string): string {
  const base = process.env.KIROKU_BASE_PATH?.replace(/\/+$/, '') ?? '';
  return base && path.startsWith(base) ? path.slice(base.length) || '/' : path;
}
