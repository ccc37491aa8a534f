import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import type { ApiEvent, ApiMiddleware, ApiResult } from './event';
import { logger } from './logger';
import { type AuthenticateOptions, authenticate } from './middleware/authenticate';
import { type EnvelopeOptions, envelope } from './middleware/envelope';
import { ipAllowList } from './middleware/ip-allow-list';
import { type JsonBodyOptions, jsonBody } from './middleware/json-body';
import { mimeCheck } from './middleware/mime-check';
import { validate } from './middleware/validate';

export interface EndpointOptions<S extends z.ZodType>
  extends Partial<EnvelopeOptions>,
    Partial<JsonBodyOptions> {
  /** The request body's schema; the business function receives what it parses to. */
  readonly schema: S;
  /** Who may call: `false` for an endpoint anyone may call (login, the OpenAPI document). */
  readonly auth?: Partial<AuthenticateOptions> | false;
  /** Check the body before the MIME type (site lookup's FindSiteNames), instead of after it. */
  readonly validateBeforeMime?: boolean;
  /** Apply Security.MimeTypeCheckOnApi; off for what is not a JSON API endpoint (the login form). */
  readonly checkMime?: boolean;
  /** Read the body at all; off for the fallback route, which answers before looking at it. */
  readonly parseBody?: boolean;
}

export interface EndpointRequest<T> {
  readonly input: T;
  readonly event: ApiEvent;
  /** The numeric `{id}` path parameter, or 0. */
  readonly pathId: number;
}

export interface AuthenticatedRequest<T> extends EndpointRequest<T> {
  readonly principal: Principal;
}

/** A domain result for the envelope, or a finished HTTP response (a download's redirect). */
type Business<T, R> = (request: R & EndpointRequest<T>) => Promise<ApiResult>;

// Settings are validated once, when the handler module loads: a bad one fails the cold start, naming it.
settings();

/**
 * The one middleware stack every HTTP handler uses, in the order CONTRACT section 1 and the reference
 * check things: IP allow-list → body parsing → authentication → MIME type → schema. Endpoints differ only by
 * options; the business function comes last and returns a domain result for the envelope.
 */
export function endpoint<S extends z.ZodType>(
  options: EndpointOptions<S> & { auth: false },
  business: Business<z.infer<S>, object>,
): middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyResultV2, Error, Context>;
export function endpoint<S extends z.ZodType>(
  options: EndpointOptions<S>,
  business: Business<z.infer<S>, { principal: Principal }>,
): middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyResultV2, Error, Context>;
export function endpoint<S extends z.ZodType>(
  options: EndpointOptions<S>,
  business: Business<z.infer<S>, { principal: Principal }>,
) {
  const mime = options.checkMime === false ? [] : [mimeCheck()];
  const checks: ApiMiddleware[] = [ipAllowList()];
  if (options.parseBody !== false) checks.push(jsonBody(options));
  if (options.auth !== false) checks.push(authenticate(options.auth));
  if (options.validateBeforeMime) checks.push(validate(options.schema), ...mime);
  else checks.push(...mime, validate(options.schema));

  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(requestState())
    .use(envelope(options))
    .use(checks)
    .handler((event) => {
      const { kiroku } = event;
      return business({
        input: kiroku.input as z.infer<S>,
        event,
        pathId: kiroku.pathId,
        principal: kiroku.principal as Principal,
      });
    }) as unknown as middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyResultV2, Error, Context>;
}

/** Sets up `event.kiroku` and tags the request's log lines with API Gateway's request id. */
function requestState(): ApiMiddleware {
  const requestStateBefore: ApiMiddleware['before'] = (request) => {
    const { event } = request;
    const id = Number(event.pathParameters?.id);
    event.kiroku = { pathId: Number.isSafeInteger(id) ? id : 0, json: {} };
    logger.appendKeys({ requestId: event.requestContext.requestId, route: event.routeKey });
  };
  return { before: requestStateBefore };
}
