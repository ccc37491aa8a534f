import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { quickjs } from './engine';
import type { CallAnswer, ScriptJob, WorkerMessage } from './job';
import { type AskHost, runJob } from './run-job';

/**
 * The worker thread that runs server scripts (lib/scripts/worker-pool.ts starts it; the bundles ship it as
 * script-worker.mjs). QuickJS runs here, so a script stuck in one long built-in (a quadratic string
 * search never checks the interrupt handler) holds only this thread, which the host terminates at the
 * deadline, never the thread that serves requests.
 *
 * A host call (`items.Get`, `items.Create`, `httpClient.Post`…) is posted to the host, and the script
 * waits on `signal` with Atomics.wait while the host does the work; the host puts the answer on `answers`
 * and then wakes this thread, which takes it with receiveMessageOnPort. The script so runs straight
 * through, however many calls it makes, and sees each call's effect before its next statement.
 */

const { signal: shared, answers } = workerData as { signal: SharedArrayBuffer; answers: MessagePort };
const signal = new Int32Array(shared);
const port = parentPort as NonNullable<typeof parentPort>;
const post = (message: WorkerMessage) => port.postMessage(message);
let seq = 0;

const ask: AskHost = (call, deadline) => {
  seq += 1;
  post({ kind: 'call', seq, call });
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { stop: 'ran out of time' };
    Atomics.wait(signal, 0, 0, left);
    // Cleared before the port is read: a wake-up after this finds its answer on the port below or,
    // arriving later, makes the next wait return at once.
    Atomics.store(signal, 0, 0);
    for (let read = receiveMessageOnPort(answers); read; read = receiveMessageOnPort(answers)) {
      const reply = read.message as CallAnswer;
      // An answer to a call given up on (its job ran out of time) is dropped.
      if (reply.seq !== seq) continue;
      return 'failed' in reply
        ? { stop: `stopped: ${call.name} failed on the host` }
        : { answer: reply.answer };
    }
  }
};

port.on('message', async (job: ScriptJob) => {
  try {
    post({
      kind: 'result',
      result: await runJob(job, ask, (script, at) => post({ kind: 'deadline', script, at })),
    });
  } catch (error) {
    // The prelude could not be installed, or the engine would not open: this thread is not used again.
    post({ kind: 'result', result: { kind: 'crashed', script: 0, what: (error as Error).message } });
  }
});

// The engine is compiled, and a first script run, before the worker takes a job: V8 compiles the wasm's
// functions when they are first called, which would otherwise cost the first job hundreds of ms.
await quickjs();
await runJob(
  {
    state: JSON.stringify({ model: {}, saved: {}, siteSettings: {}, userData: {}, context: {} }),
    query: '',
    scripts: [{ code: 'model.Title = [1].map(String).join();', filename: 'warm.js', timeOutMs: 60_000 }],
    deadline: Date.now() + 60_000,
  },
  () => ({ answer: null }),
  () => undefined,
);
post({ kind: 'ready' });
