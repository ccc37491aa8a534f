import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Principal } from '../accounts/principal';
import type { ApiResponse } from './response';

/** What the middleware stack learns about a request, in the order it learns it. */
export interface RequestState {
  /** The numeric `{id}` path parameter, or 0: the `Id` of every error body. */
  readonly pathId: number;
  /** The parsed JSON (or form) body, before validation. */
  json: Record<string, unknown>;
  principal?: Principal;
  /** The body after the endpoint's schema, with property names in their canonical case. */
  input?: unknown;
}

export type ApiEvent = APIGatewayProxyEventV2 & { kiroku: RequestState };

export type ApiResult = ApiResponse | APIGatewayProxyStructuredResultV2;

export type ApiMiddleware = MiddlewareObj<ApiEvent, ApiResult, Error, Context>;
