import type * as z from 'zod';
import type { AuthenticateOptions } from '../http/middleware/authenticate';
import type { TableKey } from '../storage/tables';

/**
 * One entry of the route table: the CDK app creates one Lambda function and one HTTP API route per entry,
 * the local gateway routes to the same handler modules from it, the OpenAPI document is generated from it,
 * and the handler's own middy stack takes its schema and options from it (lib/http/api.ts). `handler`
 * names `functions/<handler>.ts`, whose export `handler` is the Lambda entry point. Paths are API Gateway
 * route keys: `{name}` is a path parameter. API Gateway matches them case-sensitively; a path spelt in
 * another case reaches the same function through the `$default` fallback (lib/routes/match.ts).
 */

export type TableAccess = 'read' | 'write';

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly handler: string;
  /**
   * Other paths that reach the same function: one the reference also routes (without `{id}`), or a
   * spelling in another case that callers commonly send, which thereby gets a direct API Gateway route
   * instead of the fallback's extra invocation.
   */
  readonly aliases?: readonly string[];
  /** The binary bucket, when the function touches it, and how: CDK grants exactly this. */
  readonly bucket?: TableAccess;
  /** The tables the function may touch, and how: CDK grants exactly this. */
  readonly tables: Readonly<Partial<Record<TableKey, TableAccess>>>;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  /** The body's schema (undefined: no body): JSON, unless `requestType` says multipart. */
  readonly request?: z.ZodType;
  readonly requestType?: 'json' | 'multipart';
  /**
   * A multipart body whose `parameters` field is the JSON (the reference's imports): its schema. The stack
   * reads the credentials and checks this schema from that field; the handler gets the form's file.
   */
  readonly parameters?: z.ZodType;
  /** Query parameters, for the document. */
  readonly query?: z.ZodObject;
  /** What a success answers when it is not JSON (the browser UI's page and assets): a media type. */
  readonly produces?: string;
  /** Answers a redirect (302 to a presigned URL) on success instead of JSON. */
  readonly redirect?: boolean;
  /**
   * The function sends mail: in AWS the CDK app grants it SES sending as the deploy's identity and sets
   * the variables lib/mail/transport.ts reads (infra/mail.ts).
   */
  readonly mail?: boolean;
  /** Lambda memory in MB, when the function needs more than the default (uploads hold a part). */
  readonly memoryMb?: number;
  /** The success body's schema; errors are always an ApiResult. */
  readonly response: z.ZodType;
  /** Who may call (default: `ApiKey` in the body or the login cookie); false: anyone (login, the document). */
  readonly auth?: Partial<AuthenticateOptions> | false;
  /**
   * 'body' (default): the HTTP status equals the body's StatusCode; 'processed': HTTP 200 for every request
   * the logic processed, the outcome in the body (binary upload, background tasks; CONTRACT section 1).
   */
  readonly status?: 'body' | 'processed';
  /** Also take an HTML form body (application/x-www-form-urlencoded), as the login page posts one. */
  readonly form?: boolean;
  /** Apply Security.MimeTypeCheckOnApi (default true); off for what is not a JSON API endpoint. */
  readonly checkMime?: boolean;
  /** Check the body before the MIME type (site lookup's FindSiteNames) instead of after it. */
  readonly validateBeforeMime?: boolean;
  /** Read the body as JSON at all (default true); off where the handler reads it itself or needs none. */
  readonly parseBody?: boolean;
}

/** Every path a route answers on: its own and its aliases. */
export function pathsOf(route: Route): readonly string[] {
  return [route.path, ...(route.aliases ?? [])];
}

// Every items route authenticates (accounts) and checks group-based permissions (accounts again). A route
// that writes records keeps their versions (history) and reads them back for TableType History, and keeps
// the records it deletes in the recycle bin (recycleBin), which TableType Deleted reads.
export const itemsRead = { items: 'read', accounts: 'read' } as const;
export const itemsWrite = {
  items: 'write',
  accounts: 'read',
  history: 'write',
  recycleBin: 'write',
} as const;

// What a function that runs server scripts may touch: a script does what the API does, as its user
// (CONTRACT 13), through `items` (records with their files: binaries and the bucket; sites looked up by
// name: siteIndexes; View.Search: searchIndex), `notifications` (deliveries) and `groups.Update`
// (accounts). Its failures are kept beside the site (items).
export const scriptHost = {
  ...itemsWrite,
  accounts: 'write',
  binaries: 'write',
  siteIndexes: 'read',
  searchIndex: 'read',
  deliveries: 'write',
} as const;
