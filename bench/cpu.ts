import { readFileSync } from 'node:fs';

/**
 * CPU time of processes by pid, from /proc (Linux): on a small machine the load generator, the
 * gateway and the JVM compete for the same cores, and the CPU each spends per pair says where the
 * time goes. Undefined where /proc is not available.
 */

/** Linux's USER_HZ, which /proc/<pid>/stat counts in, is 100 on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

export function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return ((user + system) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Starts counting CPU for the named processes; the returned function gives milliseconds spent since. */
export function cpuMeter(pids: Readonly<Record<string, number>>): () => Record<string, number> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  return () => {
    const spent: Record<string, number> = {};
    for (const [name, pid] of Object.entries(pids)) {
      const start = before[name];
      const end = cpuMs(pid);
      if (start !== undefined && end !== undefined) spent[name] = end - start;
    }
    return spent;
  };
}
