import { benchInProcess } from './in-process';

/**
 * `node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/profile-in-process.ts`: the in-process phase,
 * one caller, short, for a CPU profile of what a request adds around its storage calls.
 */
await benchInProcess([{ concurrency: 1, warmupMs: 1_000, durationMs: 8_000, rounds: 1 }]);
process.exit(0);
