import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import { logger } from '../log';
import type { Site } from '../sites/model';
import { notificationsOf } from '../sites/notification-settings';
import { type Condition, type ServerScript, scriptsOf } from '../sites/site-scripts';
import type { FlatModel } from './model';
import { nameOf, wrap } from './script-code';
import { type Lookup, runInWorker } from './worker-pool';

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

/** A notification a script sent (`notifications.New()…Send()`): its fields as the script left them. */
export type ScriptSend = Readonly<Record<string, unknown>>;

export type RunOutcome =
  | {
      readonly kind: 'done';
      readonly model: FlatModel;
      readonly script: string;
      readonly error?: string;
      /** What the scripts sent, in order: the caller queues them once the run's effects stand. */
      readonly sends: readonly ScriptSend[];
    }
  | { readonly kind: 'failed'; readonly reason: string };

export type { LookupKey } from './job';
export type { Lookup } from './worker-pool';

/**
 * A request's scripts, each condition's run as one job on a script worker (lib/scripts/worker-pool.ts).
 * The request's scripts together have `Script.ServerScriptTimeOut`: one deadline, set when its first
 * script starts, that the lookups they wait for and the request's own work between its conditions (a
 * save, the next record of a page) count against; each script's own TimeOut bounds it too. An overrun fails the run whatever the
 * script was doing, a long built-in included. Lookups block the script while the host reads, so a run
 * never starts again: its effects (model, UserData, logs) are those of its one pass.
 */
export class RequestScripts {
  private userData: unknown = {};
  /** Set when the request's first script starts: every later script shares it. */
  private deadline: number | undefined;
  private readonly query: string;

  constructor(
    private readonly request: ScriptRequest,
    private readonly lookup: Lookup,
  ) {
    // Filled only for a login cookie (web-api.txt 4.6 rule 2); context.Query keeps the raw string anyway.
    this.query = request.principal.via === 'cookie' ? (request.event.rawQueryString ?? '') : '';
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
    const shared = enabled
      .filter((script) => script.Shared)
      .map((script) => script.Body ?? '')
      .join('\n');
    const context = this.context(site);
    const job = {
      state: JSON.stringify({
        model,
        saved: saved ?? {},
        siteSettings: site.siteSettings,
        userData: this.userData,
        context,
        notifications: notificationsOf(site.siteSettings),
      }),
      query: this.query,
      scripts: scripts.map((script) => ({
        code: wrap(script, shared),
        filename: `${nameOf(script)}.js`,
        timeOutMs: script.TimeOut ? script.TimeOut : Number.POSITIVE_INFINITY,
      })),
      siteId: site.siteId,
    };
    const deadlineFrom = (now: number) => {
      this.deadline ??= now + settings().Script.ServerScriptTimeOut;
      return this.deadline;
    };
    const result = await runInWorker(job, deadlineFrom, this.lookup);
    if (result.kind !== 'done') {
      const script = scripts[Math.min(result.script, scripts.length - 1)] as ServerScript;
      return this.failed(condition, site, script, result.what);
    }
    const { model: changed, userData, logs, caught, error, sends } = JSON.parse(result.result);
    this.userData = userData ?? {};
    const where = { siteId: site.siteId, condition };
    for (const message of logs) logger.info('server script log', { ...where, message });
    for (const message of caught) logger.warn('server script error caught (TryCatch)', { ...where, message });
    return {
      kind: 'done',
      model: changed,
      script: nameOf(scripts[scripts.length - 1] as ServerScript),
      error,
      sends: Array.isArray(sends) ? sends : [],
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

  private failed(condition: Condition, site: Site, script: ServerScript, what: string): RunOutcome {
    const reason = `server script "${nameOf(script)}" (site ${site.siteId}, ${condition}) ${what}`;
    logger.error('server script failed', { siteId: site.siteId, condition, script: nameOf(script), reason });
    return { kind: 'failed', reason };
  }
}
