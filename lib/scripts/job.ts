/**
 * What crosses between a request and the worker thread that runs its scripts (lib/scripts/worker-pool.ts,
 * lib/scripts/script-worker.ts): one job is one condition's scripts in one fresh QuickJS context.
 */

/**
 * A call a script makes to the host through its globals (`items.Create`, `users.Get`, `httpClient.Post`…):
 * the host function's name and its arguments as the prelude passed them (JSON values). The host answers
 * with the JSON text of the result, or null (lib/scripts/host-calls.ts).
 */
export interface HostCall {
  readonly name: string;
  readonly args: readonly unknown[];
}

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
  /** Epoch ms at which the request's time for scripts runs out, host calls included. */
  readonly deadline: number;
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
  | { readonly kind: 'call'; readonly seq: number; readonly call: HostCall }
  | { readonly kind: 'result'; readonly result: JobResult };

/** Host → worker, on the answers port, read synchronously while the worker waits. */
export type CallAnswer =
  | { readonly seq: number; readonly answer: string | null }
  /** The call failed on the host: the worker stops the script; the host reports the error itself. */
  | { readonly seq: number; readonly failed: true };
