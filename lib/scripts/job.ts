/**
 * What crosses between a request and the worker thread that runs its scripts (lib/scripts/worker-pool.ts,
 * lib/scripts/script-worker.ts): one job is one condition's scripts in one fresh QuickJS context.
 */

/** An item lookup a script makes through `items`; the host answers it with JSON text, or null. */
export type LookupKey =
  | { readonly kind: 'Get' | 'GetSite'; readonly id: number }
  | { readonly kind: 'GetClosestSite'; readonly originId: number; readonly name: string };

export interface ScriptJob {
  /** The JSON of {model, saved, siteSettings, userData, context} that the prelude builds the globals from. */
  readonly state: string;
  /** The raw query string `context.QueryStrings` reads ('' when it must read nothing). */
  readonly query: string;
  /** The scripts in list order; `timeOutMs` is the script's own TimeOut (Infinity when it has none). */
  readonly scripts: readonly {
    readonly code: string;
    readonly filename: string;
    readonly timeOutMs: number;
  }[];
  /** Epoch ms at which the request's time for scripts runs out, lookups included. */
  readonly deadline: number;
  /** The origin of `items.GetClosestSite(name)` without one: the site whose scripts run. */
  readonly siteId: number;
}

/**
 * How a job ended. `failed.script` is the index of the script that failed, or `scripts.length` for the
 * step that reads the result back.
 */
export type JobResult =
  | { readonly kind: 'done'; readonly result: string }
  | { readonly kind: 'failed'; readonly script: number; readonly what: string }
  /** The engine failed beneath the script: the worker that ran it is not used again. */
  | { readonly kind: 'crashed'; readonly script: number; readonly what: string };

/** Worker → host. */
export type WorkerMessage =
  | { readonly kind: 'ready' }
  /** A script starts and must end by `at` (epoch ms): the host stops the worker itself soon after. */
  | { readonly kind: 'deadline'; readonly script: number; readonly at: number }
  | { readonly kind: 'lookup'; readonly seq: number; readonly key: LookupKey }
  | { readonly kind: 'result'; readonly result: JobResult };

/** Host → worker, on the lookup port, read synchronously while the worker waits. */
export type LookupAnswer =
  | { readonly seq: number; readonly answer: string | null }
  /** The lookup failed on the host: the worker stops the script; the host reports the error itself. */
  | { readonly seq: number; readonly failed: true };
