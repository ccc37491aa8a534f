import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import type { UploadForm } from '../files/multipart-form';
import { logger } from '../log';
import type { Route } from '../routes/route';
import type { ApiMiddleware, ApiResult, Internal, RequestState } from './event';
import { authenticate, type CredentialResolver } from './middleware/authenticate';
import { envelope } from './middleware/envelope';
import { ipAllowList } from './middleware/ip-allow-list';
import { jsonBody } from './middleware/json-body';
import { mimeCheck } from './middleware/mime-check';
import { sameOrigin } from './middleware/same-origin';
import { validate } from './middleware/validate';

export interface EndpointRequest<T, P extends Principal | undefined = Principal> {
  readonly input: T;
  readonly event: APIGatewayProxyEventV2;
  /** The numeric `{id}` path parameter, or 0. */
  readonly pathId: number;
  /** The caller; undefined on the routes anyone may call. */
  readonly principal: P;
  /** A multipart body's form, on the routes whose JSON is its `parameters` field (lib/routes/route.ts). */
  readonly form?: UploadForm;
}

/** The request's body as the route's schema parses it (no schema: no body). */
type InputOf<R extends Route> = R['parameters'] extends z.ZodType
  ? z.infer<R['parameters']>
  : R['request'] extends z.ZodType
    ? z.infer<R['request']>
    : Record<string, never>;

/** A wire result for the envelope (lib/http/response.ts), or a finished HTTP response (a redirect). */
type Business<R extends Route> = (request: EndpointRequest<InputOf<R>, PrincipalOf<R>>) => Promise<ApiResult>;

type PrincipalOf<R extends Route> = R['auth'] extends false ? undefined : Principal;

export type EndpointHandler = middy.MiddyfiedHandler<
  APIGatewayProxyEventV2,
  ApiResult,
  Error,
  Context,
  Internal
> & {
  /** The route entry the handler was built from: a test holds each function to its entry. */
  readonly route: Route;
};

// Settings are validated once, when the handler module loads: a bad one fails the cold start, naming it.
settings();

// Accounts (and with them the DynamoDB client) load with the first request that carries a credential, so
// that a route anyone may call (the UI's page and assets, this API's document) never loads them at all.
// The promise is kept: every `import()` goes through the module loader's resolution again (tens of µs a
// request).
let accountsModule: Promise<typeof import('../accounts/authentication')> | undefined;
const accounts = () => (accountsModule ??= import('../accounts/authentication'));
const credentials: CredentialResolver = {
  apiKey: async (key) => (await accounts()).principalForApiKey(key),
  loginToken: async (token) => (await accounts()).principalForLoginToken(token),
};
const noBody = z.object({});
/** Request state by invocation: the middlewares keep it in `request.internal`, the handler finds it here. */
const states = new WeakMap<Context, RequestState>();

/**
 * The one middleware stack every HTTP handler uses, built from its route entry (lib/routes/), in the order
 * CONTRACT section 1 and the reference check things: IP allow-list → origin (form routes) → body parsing →
 * authentication → MIME type → schema. Endpoints differ only by their entry's options; the business
 * function comes last and returns a wire result for the envelope.
 */
export function endpoint<R extends Route>(route: R, business: Business<R>): EndpointHandler {
  // A multipart body is the handler's to read; its schema in the entry only documents it. The imports'
  // JSON is the form's `parameters` field, checked by the entry's `parameters` schema.
  const schema = route.requestType === 'multipart' ? (route.parameters ?? noBody) : (route.request ?? noBody);
  const mime = route.checkMime === false ? [] : [mimeCheck()];
  const checks: ApiMiddleware[] = [ipAllowList()];
  // A route that takes an HTML form is one another site's page can post to with the visitor's browser
  // (the login): such a post is refused before its body is read (login CSRF, CONTRACT section 1).
  if (route.form) checks.push(sameOrigin());
  if (route.parseBody !== false)
    checks.push(jsonBody({ form: route.form ?? false, multipart: route.parameters !== undefined }));
  if (route.auth !== false) checks.push(authenticate(credentials, route.auth));
  if (route.validateBeforeMime) checks.push(validate(schema), ...mime);
  else checks.push(...mime, validate(schema));

  const handler = middy<APIGatewayProxyEventV2, ApiResult, Error, Context, Internal>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(requestState())
    .use(envelope({ status: route.status ?? 'body' }))
    .use(checks)
    .handler((event, context) => {
      const state = states.get(context) as RequestState;
      return business({
        input: state.input as InputOf<R>,
        event,
        pathId: state.pathId,
        principal: state.principal as PrincipalOf<R>,
        ...(state.form && { form: state.form }),
      });
    });
  return Object.assign(handler, { route });
}

/** Sets up the request's state in `request.internal` and tags its log lines with API Gateway's request id. */
function requestState(): ApiMiddleware {
  const requestStateBefore: ApiMiddleware['before'] = (request) => {
    const { event } = request;
    const id = Number(event.pathParameters?.id);
    request.internal.kiroku = { pathId: Number.isSafeInteger(id) ? id : 0, json: {} };
    states.set(request.context, request.internal.kiroku);
    logger.appendKeys({ requestId: event.requestContext.requestId, route: event.routeKey });
  };
  return { before: requestStateBefore };
}
