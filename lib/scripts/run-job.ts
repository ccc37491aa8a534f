import { QueryStrings } from '../query-strings';
import type { HostCall, JobResult, ScriptJob } from './job';
import { PRELUDE } from './prelude';
import { type HostFunction, type Outcome, Sandbox } from './sandbox';
import { describe } from './script-code';

/**
 * Host calls the scripts of one condition may make. The time limit bounds them too; this bounds a loop of
 * cheap calls (a script paging through a table, updating each record, stays far below it).
 */
export const MAX_CALLS = 10_000;

/** The host's answer to a call (JSON text or null), or why the script must stop instead. */
export type AskHost = (call: HostCall, deadline: number) => { answer: string | null } | { stop: string };

/**
 * One job in a fresh sandbox, on the worker thread: the prelude, each script until its deadline (the
 * request's, or the script's own TimeOut when it comes first), then the result read back. A host call
 * blocks the script while the host works (reads, writes, an outside request), and that time counts
 * against the same deadline, so a script observes its calls' effects in the order it made them. `starting` tells the
 * host each script's deadline, so that it can stop the worker should the engine not stop itself.
 */
export async function runJob(
  job: ScriptJob,
  ask: AskHost,
  starting: (script: number, deadline: number) => void,
): Promise<JobResult> {
  const sandbox = await Sandbox.open();
  try {
    let deadline = job.deadline;
    const host = hostFunctions(job, sandbox, (call) => ask(call, deadline));
    // A request whose time is already spent (the save between Before and After counts) runs nothing.
    if (Date.now() >= job.deadline) return { kind: 'failed', script: 0, what: describe({ kind: 'timeout' }) };
    // The prelude is Kiroku's own short code, given no deadline: interrupted half-way, it would leave
    // the run without its globals, and a late start would fail as an engine fault, not as the time limit.
    sandbox.install(PRELUDE, host, job.state, Number.MAX_SAFE_INTEGER);
    for (const [index, script] of job.scripts.entries()) {
      deadline = Math.min(job.deadline, Date.now() + script.timeOutMs);
      // The engine checks the deadline only now and then: a short script would finish past it.
      if (Date.now() >= deadline)
        return { kind: 'failed', script: index, what: describe({ kind: 'timeout' }) };
      starting(index, deadline);
      const outcome = sandbox.evaluate(script.code, script.filename, deadline);
      if (outcome.kind !== 'ok' || sandbox.stopped) return ended(outcome, sandbox, index);
    }
    deadline = job.deadline;
    starting(job.scripts.length, deadline);
    const result = sandbox.evaluate('__kirokuResult()', 'result.js', deadline);
    if (result.kind !== 'ok' || sandbox.stopped) return ended(result, sandbox, job.scripts.length);
    return { kind: 'done', result: String(result.value) };
  } finally {
    sandbox.dispose();
  }
}

function ended(outcome: Outcome, sandbox: Sandbox, script: number): JobResult {
  // A host function may stop the run as the script's last act, before the engine checks again.
  const stopped = sandbox.stopped;
  if (stopped !== undefined) return { kind: 'failed', script, what: stopped };
  const what = describe(outcome);
  return outcome.kind === 'crashed' ? { kind: 'crashed', script, what } : { kind: 'failed', script, what };
}

function hostFunctions(
  job: ScriptJob,
  sandbox: Sandbox,
  ask: (call: HostCall) => ReturnType<AskHost>,
): Record<string, HostFunction> {
  const query = new QueryStrings(job.query);
  let calls = 0;
  return {
    data: (key) => query.data(String(key)),
    bool: (key) => query.bool(String(key)),
    int: (key) => query.int(String(key)),
    long: (key) => query.long(String(key)),
    /** `name`, and the JSON text of the arguments' array (lib/scripts/prelude.ts `call`). */
    call: (name, args) => {
      if (calls >= MAX_CALLS) {
        sandbox.stop(`made more than ${MAX_CALLS} host calls`);
        return null;
      }
      calls += 1;
      const reply = ask({ name: String(name), args: JSON.parse(String(args)) });
      if ('stop' in reply) {
        sandbox.stop(reply.stop);
        return null;
      }
      return reply.answer;
    },
  };
}
