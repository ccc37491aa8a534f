import { readFile } from 'node:fs/promises';
import { runStep } from '../lib/tasks/worker';

/**
 * The background-task worker alone, in a process of its own, for the export benchmark: it runs the steps
 * of the task given in BENCH_TASK_ID to the end, as the Tasks stream's handler would one step at a
 * time, and prints its wall time and the process's peak resident memory (VmHWM).
 */

const taskId = process.env.BENCH_TASK_ID;
if (!taskId) throw new Error('BENCH_TASK_ID is not set');
const started = performance.now();
let steps = 0;
while (await runStep(taskId)) steps++;
const status = await readFile('/proc/self/status', 'utf8');
const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
console.log(
  `bench export worker ${JSON.stringify({ steps, seconds: (performance.now() - started) / 1000, hwmKb })}`,
);
process.exit(0);
