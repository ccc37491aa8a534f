import type { Verdict } from './report';
import { type ScriptBundlesResult, scriptBundleGoals } from './script-bundles';
import { type ServerScriptsResult, serverScriptGoals } from './server-scripts';

/** The server-script figures (issue 13) as tables and verdicts, beside bench/report.ts's. */

export function printServerScripts(run?: ServerScriptsResult, bundles?: ScriptBundlesResult): void {
  if (run) {
    console.log(
      `\nServer scripts: record update, one trivial BeforeUpdate script vs none (${run.updates} each)`,
    );
    for (const [where, figures] of [
      ['in process', run.inProcess],
      ['gateway', run.gateway],
    ] as const) {
      console.log(
        `  ${where.padEnd(10)}  without p50 ${figures.without.p50Ms} / p99 ${figures.without.p99Ms} ms;` +
          ` with p50 ${figures.withScript.p50Ms} / p99 ${figures.withScript.p99Ms} ms;` +
          ` added p50 ${figures.addedP50Ms} / p99 ${figures.addedP99Ms} ms`,
      );
    }
    const { runaway } = run;
    console.log(
      `  runaway (TimeOut ${runaway.timeOutMs} ms): answered ${runaway.status} after ${runaway.answerMs.join(', ')} ms;` +
        ` next request ${runaway.nextStatus} in ${runaway.nextMs} ms`,
    );
  }
  if (bundles) {
    console.log(
      `\nServer-script bundles against ${bundles.baseline.slice(0, 12)} (import: median of ${bundles.runs})`,
    );
    const { sandboxAlone } = bundles;
    console.log(
      `  the sandbox alone: ${sandboxAlone.sizeKb} KB, import ${sandboxAlone.importMs} ms, first script ${sandboxAlone.firstRunMs} ms`,
    );
    for (const handler of bundles.handlers) {
      const grew =
        handler.baselineSizeKb === undefined
          ? 'new'
          : `${(handler.sizeKb - handler.baselineSizeKb).toFixed(1)} KB`;
      const time =
        handler.importMs === undefined
          ? ''
          : `; import ${handler.importMs} ms (baseline ${handler.baselineImportMs ?? '-'})`;
      if (handler.scripted || handler.importMs !== undefined || grew !== '0.0 KB')
        console.log(`  ${handler.handler.padEnd(26)} ${handler.sizeKb} KB (${grew})${time}`);
    }
  }
}

export function serverScriptVerdicts(run?: ServerScriptsResult, bundles?: ScriptBundlesResult): Verdict[] {
  const verdicts: Verdict[] = [];
  if (run) {
    verdicts.push({
      measure: 'server script: added p50, in process',
      value: `${run.inProcess.addedP50Ms} ms`,
      goal: `< ${serverScriptGoals.addedP50Ms} ms`,
      pass: run.inProcess.addedP50Ms < serverScriptGoals.addedP50Ms,
    });
    const slowest = Math.max(...run.runaway.answerMs);
    verdicts.push({
      measure: 'runaway script (1,000 ms): answer, next request',
      value: `${slowest} ms, ${run.runaway.nextStatus}`,
      goal: `< ${serverScriptGoals.runawayMs} ms, 200`,
      pass: slowest < serverScriptGoals.runawayMs && run.runaway.nextStatus === 200,
    });
  }
  if (bundles) {
    const scripted = bundles.handlers.filter((handler) => handler.scripted);
    const slowest = Math.max(...scripted.map((handler) => handler.importMs ?? 0));
    verdicts.push({
      measure: 'script handlers: import over bare Node',
      value: `${slowest} ms`,
      goal: `< ${scriptBundleGoals.importOverBareMs} ms`,
      pass: slowest < scriptBundleGoals.importOverBareMs,
    });
    const others = bundles.handlers.filter(
      (handler) => !handler.scripted && handler.baselineSizeKb !== undefined,
    );
    const grown = Math.max(...others.map((handler) => handler.sizeKb - (handler.baselineSizeKb ?? 0)));
    verdicts.push({
      measure: 'other handlers: most growth, no QuickJS',
      value: `${grown.toFixed(1)} KB, ${others.some((handler) => handler.carriesQuickJs) ? 'QuickJS in one' : 'none'}`,
      goal: 'about unchanged (< 5 KB), none',
      pass: grown < 5 && !others.some((handler) => handler.carriesQuickJs),
    });
  }
  return verdicts;
}
