import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import { logger } from '../log';
import { QueryStrings } from '../query-strings';
import type { Site } from '../sites/model';
import { type Condition, type ServerScript, scriptsOf } from '../sites/site-scripts';
import type { FlatModel } from './model';
import { PRELUDE } from './prelude';
import { type HostFunction, type Outcome, Sandbox } from './sandbox';
import { describe, nameOf, wrap } from './script-code';

/** The request the scripts run for: what `context` shows of it. */
export interface ScriptRequest {
  readonly principal: Principal;
  /** The parts of API Gateway's event the scripts see. */
  readonly event: {
    readonly rawQueryString?: string;
    readonly requestContext: { readonly http: { readonly method: string } };
  };
  readonly action: string;
  readonly apiVersion?: number | string;
  /** The `{id}` of the path. */
  readonly id: number;
}

export type RunOutcome =
  | { readonly kind: 'done'; readonly model: FlatModel; readonly script: string; readonly error?: string }
  | { readonly kind: 'failed'; readonly reason: string };

/** Answers the host's item lookups; each answer is JSON text, or null. */
export type Lookup = (key: LookupKey) => Promise<unknown>;
export type LookupKey =
  | { readonly kind: 'Get' | 'GetSite'; readonly id: number }
  | { readonly kind: 'GetClosestSite'; readonly originId: number; readonly name: string };

/** Distinct item lookups the scripts of one condition may make. */
const MAX_LOOKUPS = 100;

/**
 * A request's scripts. The engine is synchronous, and the item lookups read DynamoDB: a run that asks for
 * something not yet read is stopped, the answers are read, and the run starts again from the start, in a
 * fresh sandbox, with those answers at hand. A run's effects (model, UserData, logs) are taken only from the
 * run that finishes, so a restarted run leaves no trace. Time spent in every attempt counts. The answers
 * last one condition's run: an After condition, or the next record's WhenloadingRecord, reads afresh.
 */
export class RequestScripts {
  private userData: unknown = {};
  private spentMs = 0;
  private answers = new Map<string, string | null>();
  private readonly query: QueryStrings;

  constructor(
    private readonly request: ScriptRequest,
    private readonly lookup: Lookup,
  ) {
    // Filled only for a login cookie (web-api.txt 4.6 rule 2); context.Query keeps the raw string anyway.
    this.query = new QueryStrings(request.principal.via === 'cookie' ? request.event.rawQueryString : '');
  }

  /** Runs the site's scripts of `condition`; undefined when none runs. */
  async run(
    condition: Condition,
    site: Site,
    model: FlatModel,
    saved?: FlatModel,
  ): Promise<RunOutcome | undefined> {
    if (!settings().Script.ServerScript) return undefined;
    const enabled = scriptsOf(site.siteSettings).filter((script) => !script.Disabled);
    const scripts = enabled.filter((script) => !script.Shared && script[condition]);
    if (scripts.length === 0) return undefined;
    const shared = enabled.filter((script) => script.Shared).map((script) => script.Body ?? '');
    const data = { model, saved: saved ?? {}, siteSettings: site.siteSettings };
    this.answers = new Map();
    for (;;) {
      const pending = new Map<string, LookupKey>();
      const outcome = await this.attempt(condition, site, scripts, shared.join('\n'), data, pending);
      if (outcome) return outcome;
      if (this.answers.size + pending.size > MAX_LOOKUPS) {
        return this.failed(
          condition,
          site,
          scripts[0] as ServerScript,
          `more than ${MAX_LOOKUPS} item lookups`,
        );
      }
      for (const [text, key] of pending) {
        const answer = await this.lookup(key);
        this.answers.set(text, answer === null || answer === undefined ? null : JSON.stringify(answer));
      }
    }
  }

  /** One run in a fresh sandbox; undefined when it stopped for lookups (then in `pending`). */
  private async attempt(
    condition: Condition,
    site: Site,
    scripts: readonly ServerScript[],
    shared: string,
    data: { model: FlatModel; saved: FlatModel; siteSettings: Record<string, unknown> },
    pending: Map<string, LookupKey>,
  ): Promise<RunOutcome | undefined> {
    const sandbox = await Sandbox.open();
    try {
      const context = this.context(site);
      const state = JSON.stringify({ ...data, userData: this.userData, context });
      sandbox.install(PRELUDE, this.host(sandbox, site, pending), state, this.remaining());
      for (const script of scripts) {
        const own = script.TimeOut ? script.TimeOut : Number.POSITIVE_INFINITY;
        const outcome = this.timed(() =>
          sandbox.evaluate(wrap(script, shared), `${nameOf(script)}.js`, Math.min(this.remaining(), own)),
        );
        if (sandbox.stopped) return undefined;
        if (outcome.kind !== 'ok') return this.failed(condition, site, script, describe(outcome));
      }
      const last = scripts[scripts.length - 1] as ServerScript;
      const result = this.timed(() => sandbox.evaluate('__kirokuResult()', 'result.js', this.remaining()));
      if (sandbox.stopped) return undefined;
      if (result.kind !== 'ok') return this.failed(condition, site, last, describe(result));
      const { model, userData, logs, caught, error } = JSON.parse(String(result.value));
      this.userData = userData ?? {};
      const where = { siteId: site.siteId, condition };
      for (const message of logs) logger.info('server script log', { ...where, message });
      for (const message of caught)
        logger.warn('server script error caught (TryCatch)', { ...where, message });
      return { kind: 'done', model, script: nameOf(last), error };
    } finally {
      sandbox.dispose();
    }
  }

  private host(sandbox: Sandbox, site: Site, pending: Map<string, LookupKey>): Record<string, HostFunction> {
    const answer = (key: LookupKey): string | null => {
      const ids = key.kind === 'GetClosestSite' ? [key.originId] : [key.id];
      if (!ids.every((id) => Number.isSafeInteger(id) && id >= 0)) return null;
      const text = JSON.stringify(key);
      const known = this.answers.get(text);
      if (known !== undefined) return known;
      pending.set(text, key);
      sandbox.stop();
      return null;
    };
    return {
      data: (key) => this.query.data(String(key)),
      bool: (key) => this.query.bool(String(key)),
      int: (key) => this.query.int(String(key)),
      long: (key) => this.query.long(String(key)),
      get: (id) => answer({ kind: 'Get', id: Number(id) }),
      getSite: (id) => answer({ kind: 'GetSite', id: Number(id) }),
      closestSite: (name, originId) =>
        answer({ kind: 'GetClosestSite', name: String(name), originId: Number(originId) || site.siteId }),
    };
  }

  private context(site: Site): Record<string, unknown> {
    const { principal, event, action, apiVersion, id } = this.request;
    const rawQuery = event.rawQueryString ?? '';
    return {
      Query: rawQuery ? `?${rawQuery}` : '',
      UserId: principal.userId,
      LoginId: principal.loginId,
      DeptId: principal.deptId ?? 0,
      TenantId: principal.tenantId,
      SiteId: site.siteId,
      Id: id,
      HttpMethod: event.requestContext.http.method,
      Controller: 'items',
      Action: action,
      ApiVersion: apiVersion === undefined ? 1.0 : Number(apiVersion),
    };
  }

  private remaining(): number {
    return Math.max(0, settings().Script.ServerScriptTimeOut - this.spentMs);
  }

  private timed(run: () => Outcome): Outcome {
    const start = Date.now();
    try {
      return run();
    } finally {
      this.spentMs += Date.now() - start;
    }
  }

  private failed(condition: Condition, site: Site, script: ServerScript, what: string): RunOutcome {
    const reason = `server script "${nameOf(script)}" (site ${site.siteId}, ${condition}) ${what}`;
    logger.error('server script failed', { siteId: site.siteId, condition, script: nameOf(script), reason });
    return { kind: 'failed', reason };
  }
}
