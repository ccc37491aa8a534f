import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { Principal } from '../accounts/principal';
import type { UploadForm } from '../files/multipart-form';
import type { ApiResponse } from './response';

/** What the middleware stack learns about a request, in the order it learns it. */
export interface RequestState {
  /** The numeric `{id}` path parameter, or 0: the `Id` of every error body. */
  readonly pathId: number;
  /** The parsed JSON (or form) body, before validation. */
  json: Record<string, unknown>;
  principal?: Principal;
  /** A multipart body whose `parameters` field was the JSON (the imports): its file is the handler's. */
  form?: UploadForm;
  /** The body after the endpoint's schema, with property names in their canonical case. */
  input?: unknown;
}

/** Middy's per-request `internal` object, as this stack fills it. */
export interface Internal extends Record<string, unknown> {
  kiroku: RequestState;
}

/** A business result for the envelope, or a finished HTTP response (a download's redirect). */
export type ApiResult = APIGatewayProxyResultV2<ApiResponse>;

export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEventV2, ApiResult, Error, Context, Internal>;
