import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { HostCall, JobResult, ScriptJob, WorkerMessage } from './job';

/**
 * The host side of the script worker (lib/scripts/script-worker.ts). A job's time limit holds whatever
 * the script runs: the worker stops a script itself at its deadline when the engine checks, and when it
 * does not answer by then (a long built-in never checks), the host terminates it and answers the job as
 * out of time. A warm worker is kept between requests, so a run costs a message each way, not a start.
 */

/**
 * Answers a host call of the job's script `script` (its index); the value is sent as JSON, null or
 * undefined as null.
 */
export type CallHost = (call: HostCall, script: number) => Promise<unknown>;

/** How long after a deadline the worker may take to report it before it is terminated. */
const GRACE_MS = 50;
/** Idle workers kept warm: the local runtime serves requests concurrently, a Lambda one at a time. */
const MAX_IDLE = 2;
/** How long after a job that lost its worker the replacement starts. */
const REPLACE_AFTER_MS = 100;
/** setTimeout's largest delay; a longer one fires at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

const idle: ScriptWorker[] = [];
/** A worker starting for the pool: the next job without an idle worker takes it. */
let starting: Promise<ScriptWorker> | undefined;

/**
 * Runs a job on a warm worker. `deadlineFrom` gives the job's deadline from the moment a worker takes it,
 * so that a worker's start is never the scripts' time.
 */
export async function runInWorker(
  job: Omit<ScriptJob, 'deadline'>,
  deadlineFrom: (now: number) => number,
  callHost: CallHost,
): Promise<JobResult> {
  const worker = await acquire();
  try {
    return await worker.run({ ...job, deadline: deadlineFrom(Date.now()) }, callHost);
  } finally {
    if (worker.usable && idle.length < MAX_IDLE) idle.push(worker.hold(false));
    else worker.stop();
    // The next request must not wait for a start when this one cost the worker; the start waits a
    // moment, so that it does not compete for the CPU with the answer to this request.
    if (idle.length === 0) setTimeout(warmUp, REPLACE_AFTER_MS).unref();
  }
}

function acquire(): Promise<ScriptWorker> {
  const warm = idle.pop();
  if (warm) return Promise.resolve(warm.hold(true));
  const next = starting ?? ScriptWorker.start();
  starting = undefined;
  return next.then((worker) => worker.hold(true));
}

function warmUp(): void {
  if (starting || idle.length > 0) return;
  const next = ScriptWorker.start();
  starting = next;
  // Unclaimed when it is ready, it waits with the idle ones.
  next.then(
    (worker) => {
      if (starting !== next) return;
      starting = undefined;
      if (idle.length < MAX_IDLE) idle.push(worker.hold(false));
      else worker.stop();
    },
    () => {
      if (starting === next) starting = undefined;
    },
  );
}

class ScriptWorker {
  private alive = true;
  private busy = false;
  /** What the worker threw, if it did: it then exits. */
  failure: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly signal: Int32Array,
    private readonly answers: MessagePort,
  ) {
    worker.on('error', (error) => {
      this.failure = error;
    });
    worker.on('exit', () => {
      this.alive = false;
      const at = idle.indexOf(this);
      if (at >= 0) idle.splice(at, 1);
    });
  }

  static start(): Promise<ScriptWorker> {
    const signal = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const { url, execArgv } = workerEntry();
    const worker = new Worker(url, {
      execArgv,
      workerData: { signal, answers: port2 },
      transferList: [port2],
    });
    const started = new ScriptWorker(worker, new Int32Array(signal), port1);
    return new Promise((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.kind !== 'ready') return;
        worker.off('exit', onExit);
        worker.off('message', onMessage);
        resolve(started);
      };
      const onExit = (code: number) =>
        reject(new Error(`the script worker exited at start (${code}): ${started.failure?.message}`));
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  }

  /**
   * Whether the worker keeps the process alive: while it starts or runs a job it does (a process awaiting
   * it must not exit), idle it does not (a test or the benchmark ends with its work).
   */
  hold(held: boolean): this {
    if (held) this.worker.ref();
    else this.worker.unref();
    return this;
  }

  get usable(): boolean {
    return this.alive && !this.busy;
  }

  stop(): void {
    this.alive = false;
    this.answers.close();
    void this.worker.terminate();
  }

  run(job: ScriptJob, callHost: CallHost): Promise<JobResult> {
    const { worker } = this;
    this.busy = true;
    return new Promise<JobResult>((resolve, reject) => {
      let script = 0;
      let timer: NodeJS.Timeout | undefined;
      let failure: { error: unknown } | undefined;
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        settle();
      };
      const arm = (at: number) => {
        clearTimeout(timer);
        timer = setTimeout(expire, Math.min(MAX_DELAY_MS, Math.max(0, at + GRACE_MS - Date.now())));
      };
      const expire = () => {
        // The engine did not stop the script (or a host call outran the deadline): only terminating helps.
        this.stop();
        finish(() => resolve({ kind: 'failed', script, what: 'ran out of time (terminated)' }));
      };
      const answer = (seq: number, call: HostCall) => {
        callHost(call, script).then(
          (value) =>
            this.reply({ seq, answer: value === null || value === undefined ? null : JSON.stringify(value) }),
          (error: unknown) => {
            failure ??= { error };
            this.reply({ seq, failed: true });
          },
        );
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.kind === 'deadline') {
          script = message.script;
          arm(message.at);
        } else if (message.kind === 'call') {
          answer(message.seq, message.call);
        } else if (message.kind === 'result') {
          this.busy = false;
          if (message.result.kind === 'crashed') this.stop();
          finish(() => (failure ? reject(failure.error) : resolve(message.result)));
        }
      };
      const onExit = () =>
        finish(() =>
          resolve({ kind: 'crashed', script, what: `the script worker exited (${this.failure?.message})` }),
        );
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      arm(job.deadline);
      worker.postMessage(job);
    });
  }

  private reply(answer: { seq: number; answer: string | null } | { seq: number; failed: true }): void {
    if (!this.alive) return;
    this.answers.postMessage(answer);
    Atomics.store(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }
}

/**
 * The worker's file: script-worker.ts beside this module when it runs from the sources (under tsx, which
 * the worker loads too), or the bundle's script-worker.mjs (infra/bundling.ts), beside this file or one
 * level up when this module landed in a chunk.
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return { url: new URL('./script-worker.ts', here), execArgv: ['--import', tsx] };
  }
  for (const candidate of ['./script-worker.mjs', '../script-worker.mjs']) {
    const url = new URL(candidate, here);
    // None of the process's own flags (an --input-type, a test runner's): NODE_OPTIONS applies anyway.
    if (existsSync(url)) return { url, execArgv: [] };
  }
  throw new Error('script-worker.mjs is missing from the bundle');
}
