import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { basePath, pathBelowBase } from '../lib/config/base-path';
import {
  MethodNotAllowedError,
  NotFoundError,
  OperationNotAvailableError,
  RequestTooLargeError,
} from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { FunctionFailedError, invokeFunction, PayloadTooLargeError } from '../lib/http/lambda-invoke';
import { logger } from '../lib/log';
import { dispatchedEvent, resolveFallback } from '../lib/routes/fallback';
import { fallback } from '../lib/routes/meta';

/**
 * API Gateway's `$default` route: every request no route key matched. API Gateway HTTP API compares
 * paths case-sensitively, the reference (ASP.NET routing) does not (CONTRACT section 1), so a path spelt
 * in another case lands here and is run by its route's own function, invoked with the event API Gateway
 * would have built (lib/routes/fallback.ts). Why this design, rather than one function for all routes:
 * each route's function keeps its own least-privilege role (this one may only invoke them, and reads no
 * table), the usual spelling keeps its direct route and its latency, and only a mis-cased request pays
 * one more invocation. What no route matches is answered here: a 404 naming an operation of the
 * reference that Kiroku lacks, a 405 for a path of another method, or the generic 404.
 */

const answer = endpoint(fallback, async ({ event }) => {
  const { method } = event.requestContext.http;
  const path = pathBelowBase(event.rawPath, basePath());
  const found = path === undefined ? { kind: 'none' as const } : resolveFallback(method, path);
  if (found.kind === 'unavailable') throw new OperationNotAvailableError(found.operation);
  if (found.kind === 'method') throw new MethodNotAllowedError(`${method} ${path}`);
  throw new NotFoundError(`no route for ${method} ${event.rawPath}`);
});

// A body near the 6 MB limit may fit API Gateway's event but not, with the route key added, the invocation.
const tooLarge = endpoint(fallback, async () => {
  throw new RequestTooLargeError('the dispatched event is over the invocation payload limit');
});

async function dispatch(event: APIGatewayProxyEventV2, context: Context) {
  const path = pathBelowBase(event.rawPath, basePath());
  const found = path === undefined ? undefined : resolveFallback(event.requestContext.http.method, path);
  if (found?.kind !== 'route') return answer(event, context);
  try {
    return await invokeFunction(
      functionNameOf(found.match.route.handler),
      dispatchedEvent(event, found.match),
    );
  } catch (error) {
    // API Gateway's own answer when a route's function fails: the same whichever way it was reached.
    if (error instanceof PayloadTooLargeError) return tooLarge(event, context);
    logger.error('dispatched function failed', error as Error);
    if (!(error instanceof FunctionFailedError)) throw error;
    return {
      statusCode: 500,
      headers: { 'content-type': 'application/json' },
      body: '{"message":"Internal Server Error"}',
    };
  }
}

/** The entry point, with its route entry as every handler carries it (its stack is built from it). */
export const handler = Object.assign(dispatch, { route: fallback });

/** The deployed name of a route's function: the stack names them `<prefix><handler>` (infra/kiroku-stack.ts). */
function functionNameOf(handler: string): string {
  return `${process.env.KIROKU_FUNCTION_PREFIX ?? ''}${handler}`;
}
