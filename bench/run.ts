import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchBulkUpsert, printBulkUpsert } from './bulk-upsert';
import { type BundlesResult, benchBundles } from './bundles';
import { projectRoot } from './children';
import { benchChunkSteps } from './chunk-steps';
import { benchExport, exportVerdicts, printExport } from './export';
import { benchHistory, historyVerdicts, printHistory } from './history';
import { benchImport, importVerdicts } from './import';
import { benchInProcess, type InProcessCase } from './in-process';
import { benchKeyValues, keyValuesVerdicts, printKeyValues } from './key-values';
import { benchNotifications, notificationsVerdicts, printNotifications } from './notifications';
import { benchRecordsView, printRecordsView, recordsViewVerdicts } from './records-view';
import * as report from './report';
import { benchScriptBundles } from './script-bundles';
import { printServerScripts, serverScriptVerdicts } from './script-report';
import { benchScriptWrites, printScriptWrites } from './script-writes';
import { benchSearch, searchVerdicts } from './search';
import { benchServerScripts } from './server-scripts';
import { benchSessions, type SessionsResult } from './sessions';
import { benchSiteLookup } from './site-lookup';
import { benchSiteLookupGateway } from './site-lookup-gateway';
import { benchStart, type StartResult } from './start-time';
import { benchTableDesign, printTableDesign } from './table-design';
import { benchUi, printUi, uiVerdicts } from './ui';
import { benchUpload } from './upload';

/**
 * `npm run bench`: the figures the issues ask for (sessions, bundles, start-up, site lookup, binary upload)
 * in one run, printed as tables and written to bench/results/latest.json. A missed goal is a result, not a failure: the exit code is
 * non-zero only when a measurement could not be made.
 */

// Two loads: one client at a time (latency-bound: what the HTTP hop and the stack add to each call) and
// eight at once (CPU-bound on two cores, where the client, the gateway and the JVM share the machine).
const SESSIONS = [1, 8].map((concurrency) => ({
  concurrency,
  warmupMs: 2_000,
  durationMs: 10_000,
  rounds: 4,
}));
// BENCH_IMPORT_RUNS=3 for a quicker look while working; the figures reported are taken with 7.
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 7);
const WARM_STARTS = 3;

// npm start is measured as a user runs it: none of this shell's Kiroku settings, nor the ones the
// sessions phase sets in this process.
const startEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('KIROKU_')),
);

/**
 * `npm run bench -- bundles sessions` runs only the phases named (sessions, in-process, bundles, start,
 * lookup, lookup-gateway, upload, scripts, records, design, history, keyvalues, search, ui, export, import,
 * notifications, script-writes), so that one figure can be taken alone on a shared machine; none:
 * all of them.
 */
const only = new Set(process.argv.slice(2));
const wanted = (name: string) => only.size === 0 || only.has(name);

const failures: string[] = [];
const verdicts: report.Verdict[] = [];
const began = performance.now();

async function phase<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  console.error(`[bench] ${name}…`);
  const started = performance.now();
  try {
    const result = await run();
    console.error(`[bench] ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    console.error(`[bench] ${name} FAILED:`, error);
    failures.push(`${name}: ${(error as Error).message}`);
    return undefined;
  }
}

const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
};

const sessions: SessionsResult[] = [];
for (const options of wanted('sessions') ? SESSIONS : []) {
  const result = await phase(`sessions set+get, ${options.concurrency} workers`, () =>
    benchSessions(options),
  );
  if (!result) continue;
  sessions.push(result);
  for (const name of ['kiroku', 'bare'] as const) {
    const run = result[name];
    if (run.errors) failures.push(`sessions ${name}: ${run.errors} failed pairs, first: ${run.firstError}`);
  }
}

// In process (issue 15): the handler called directly against the same calls made bare.
const inProcess: InProcessCase[] | undefined = wanted('in-process')
  ? await phase('handlers in process vs their bare storage calls', () => benchInProcess(SESSIONS))
  : undefined;

const bundleDir = await mkdtemp(join(tmpdir(), 'kiroku-bench-bundles-'));
const bundles: BundlesResult | undefined = wanted('bundles')
  ? await phase('handler bundles', () => benchBundles({ outDir: bundleDir, runs: IMPORT_RUNS })).finally(() =>
      rm(bundleDir, { recursive: true, force: true }),
    )
  : undefined;

const start: StartResult | undefined = wanted('start')
  ? await phase('npm start', () => benchStart(WARM_STARTS, startEnv))
  : undefined;

const lookupInProcess = wanted('lookup')
  ? ((await phase('site lookup, in process', () => benchSiteLookup())) as report.SiteLookupResult | undefined)
  : undefined;
const lookupGateway = wanted('lookup-gateway')
  ? await phase('site lookup, through the gateway', () => benchSiteLookupGateway())
  : undefined;
const upload = wanted('upload') ? await phase('binary upload', () => benchUpload()) : undefined;
const serverScripts = wanted('scripts')
  ? await phase('server scripts', () => benchServerScripts())
  : undefined;
const scriptBundles = wanted('scripts')
  ? await phase('server-script bundles', () => benchScriptBundles())
  : undefined;
// Only when asked for: an instrumented upload, where the time of a chunk goes.
const chunkSteps = only.has('chunk-steps')
  ? await phase('chunk steps, instrumented', () => benchChunkSteps())
  : undefined;
const recordsView = wanted('records')
  ? await phase('records: a filtered first page of a large site', () => benchRecordsView())
  : undefined;
const keyValues = wanted('keyvalues')
  ? await phase('keyvalues: display values vs raw values of a page', () => benchKeyValues())
  : undefined;
const bulkUpsert = wanted('records')
  ? await phase('records: bulkupsert vs single creates', () => benchBulkUpsert())
  : undefined;
const tableDesign = wanted('design')
  ? await phase('records: creates through a table design vs plain', () => benchTableDesign())
  : undefined;
const history = wanted('history')
  ? await phase('history: updates with and without a version, gets with and without 1,000', () =>
      benchHistory(),
    )
  : undefined;
const scriptWrites = wanted('script-writes')
  ? await phase('script writes: a create whose script creates, a chain of 10 nested scripts', () =>
      benchScriptWrites(),
    )
  : undefined;
const search = wanted('search') ? await phase('full-text search', () => benchSearch()) : undefined;
const ui = wanted('ui') ? await phase('browser UI', () => benchUi()) : undefined;
const exported = wanted('export')
  ? await phase('background export of 10,000 and 100,000 records', () => benchExport())
  : undefined;
const imported = wanted('import')
  ? await phase('background import of 10,000 and 100,000 rows', () => benchImport())
  : undefined;
const notifications = wanted('notifications')
  ? await phase('notification deliveries: latency, a burst, a hanging receiver', () => benchNotifications())
  : undefined;

for (const result of sessions) {
  report.printSessions(result);
  verdicts.push(...report.sessionsVerdicts(result));
}
if (inProcess) {
  report.printInProcess(inProcess);
  verdicts.push(...report.inProcessVerdicts(inProcess));
}
if (bundles) {
  report.printBundles(bundles);
  verdicts.push(...report.bundleVerdicts(bundles));
}
if (start) {
  report.printStart(start);
  verdicts.push(...report.startVerdicts(start));
}
if (lookupInProcess || lookupGateway) {
  report.printSiteLookup(lookupInProcess, lookupGateway);
  verdicts.push(...report.siteLookupVerdicts(lookupInProcess, lookupGateway));
}
if (upload) {
  report.printUpload(upload);
  verdicts.push(...report.uploadVerdicts(upload));
}
if (serverScripts || scriptBundles) {
  printServerScripts(serverScripts, scriptBundles);
  verdicts.push(...serverScriptVerdicts(serverScripts, scriptBundles));
}
if (keyValues) {
  printKeyValues(keyValues);
  verdicts.push(...keyValuesVerdicts(keyValues));
}
if (recordsView) {
  printRecordsView(recordsView);
  verdicts.push(...recordsViewVerdicts(recordsView));
}
if (bulkUpsert) printBulkUpsert(bulkUpsert);
if (tableDesign) printTableDesign(tableDesign);
if (history) {
  printHistory(history);
  verdicts.push(...historyVerdicts(history));
}
if (scriptWrites) printScriptWrites(scriptWrites);
if (chunkSteps) report.printChunkSteps(chunkSteps);
if (search) {
  console.log('\nFull-text search (issue 14):');
  console.log(JSON.stringify(search, null, 2));
  verdicts.push(...searchVerdicts(search));
}
if (ui) {
  printUi(ui);
  verdicts.push(...uiVerdicts(ui));
}
if (exported) {
  console.log('\nBackground export (issue 25):');
  printExport(exported);
  verdicts.push(...exportVerdicts(exported));
}
if (imported) {
  console.log('\nBackground import (issue 25):');
  console.log(JSON.stringify(imported, null, 2));
  verdicts.push(...importVerdicts(imported));
}
if (notifications) {
  console.log('\nNotification deliveries (issue 26):');
  printNotifications(notifications);
  verdicts.push(...notificationsVerdicts(notifications));
}
report.printVerdicts(verdicts);
for (const failure of failures) console.log(`  could not measure: ${failure}`);

const resultsDir = join(projectRoot, 'bench', 'results');
await mkdir(resultsDir, { recursive: true });
const file = join(resultsDir, only.size === 0 ? 'latest.json' : `latest-${[...only].join('-')}.json`);
const results = {
  generatedAt: new Date().toISOString(),
  durationS: Math.round((performance.now() - began) / 1000),
  machine,
  goals: report.goals,
  verdicts,
  failures,
  sessions,
  inProcess,
  bundles,
  start,
  siteLookup: { inProcess: lookupInProcess, gateway: lookupGateway },
  upload,
  serverScripts,
  scriptBundles,
  records: { view: recordsView, bulkUpsert, tableDesign, keyValues },
  chunkSteps,
  search,
  ui,
  export: exported,
  import: imported,
  notifications,
};
await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nWritten to ${file} (${results.durationS} s)`);

// Module-scope SDK clients keep sockets open: leave explicitly, children are killed on exit.
process.exit(failures.length > 0 ? 1 : 0);
