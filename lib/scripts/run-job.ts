import { QueryStrings } from '../query-strings';
import type { JobResult, LookupKey, ScriptJob } from './job';
import { PRELUDE } from './prelude';
import { type HostFunction, type Outcome, Sandbox } from './sandbox';
import { describe } from './script-code';

/** Distinct item lookups the scripts of one condition may make. */
const MAX_LOOKUPS = 100;

/** The host's answer to a lookup (JSON text or null), or why the script must stop instead. */
export type AskHost = (key: LookupKey, deadline: number) => { answer: string | null } | { stop: string };

/**
 * One job in a fresh sandbox, on the worker thread: the prelude, each script until its deadline (the
 * request's, or the script's own TimeOut when it comes first), then the result read back. A lookup blocks
 * the script while the host reads, and that time counts against the same deadline. `starting` tells the
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
    const host = hostFunctions(job, sandbox, (key) => ask(key, deadline));
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
  ask: (key: LookupKey) => ReturnType<AskHost>,
): Record<string, HostFunction> {
  const query = new QueryStrings(job.query);
  // One answer per distinct lookup in a job: asked again, the script sees what it saw.
  const answers = new Map<string, string | null>();
  const lookup = (key: LookupKey): string | null => {
    const ids = key.kind === 'GetClosestSite' ? [key.originId] : [key.id];
    if (!ids.every((id) => Number.isSafeInteger(id) && id >= 0)) return null;
    const text = JSON.stringify(key);
    const known = answers.get(text);
    if (known !== undefined) return known;
    if (answers.size >= MAX_LOOKUPS) {
      sandbox.stop(`made more than ${MAX_LOOKUPS} item lookups`);
      return null;
    }
    const reply = ask(key);
    if ('stop' in reply) {
      sandbox.stop(reply.stop);
      return null;
    }
    answers.set(text, reply.answer);
    return reply.answer;
  };
  return {
    data: (key) => query.data(String(key)),
    bool: (key) => query.bool(String(key)),
    int: (key) => query.int(String(key)),
    long: (key) => query.long(String(key)),
    get: (id) => lookup({ kind: 'Get', id: Number(id) }),
    getSite: (id) => lookup({ kind: 'GetSite', id: Number(id) }),
    closestSite: (name, originId) =>
      lookup({ kind: 'GetClosestSite', name: String(name), originId: Number(originId) || job.siteId }),
  };
}
