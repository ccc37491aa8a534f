import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';
import type { RecordScripts } from '../items/record-scripts';
import { logger } from '../log';
import type { Site } from '../sites/model';
import { notificationsOf } from '../sites/notification-settings';
import { type Condition, type ServerScript, scriptsOf } from '../sites/site-scripts';
import { hostCalls, type ScriptCallContext } from './host-calls';
import type { FlatModel } from './model';
import { nameOf, wrap } from './script-code';
import { contextOf, requestBody, type ScriptEvent } from './script-context';
import { recordScriptError } from './script-errors';
import { runInWorker } from './worker-pool';

/** The request the scripts run for: what `context` shows of it. */
export interface ScriptRequest {
  readonly principal: Principal;
  /** The parts of API Gateway's event the scripts see (`context`'s URL, headers and body). */
  readonly event: ScriptEvent;
  readonly action: string;
  readonly apiVersion?: number | string;
  /** The `{id}` of the path. */
  readonly id: number;
  /**
   * `context.ApiRequestBody`: the JSON of a nested write (what the script passed to `items.*`); absent for
   * a caller's request, whose event's body it is (without its ApiKey, lib/scripts/script-context.ts).
   */
  readonly body?: string;
  /**
   * For a nested write's scripts (an `items.*` call of a script): its depth (0, the default, for a
   * caller's request), the UserData every run of the request shares, and the deadline of the run that
   * made the call, which the nested run may not outlast.
   */
  readonly nesting?: {
    readonly depth: number;
    readonly shared: { userData: unknown };
    readonly deadline: number;
  };
}

/** The reference's ServerScriptDepth limit: from this depth, an `items.*` write runs no scripts. */
export const MAX_SCRIPT_DEPTH = 10;

/** The condition of a tenant's scheduled scripts (lib/scripts/background/). */
export const BACKGROUND = 'BackgroundServerScript';

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

/**
 * A request's scripts, each condition's run as one job on a script worker (lib/scripts/worker-pool.ts).
 * The request's scripts together have `Script.ServerScriptTimeOut`: one deadline, set when its first
 * script starts, that the host calls they wait for and the request's own work between its conditions (a
 * save, the next record of a page) count against; each script's own TimeOut bounds it too. An overrun
 * fails the run whatever the script was doing, a long built-in included. Host calls block the script
 * while the host works, so a run never starts again: its effects (model, UserData, logs, writes) are those
 * of its one pass, in its order.
 */
export class RequestScripts {
  private readonly shared: { userData: unknown };
  /** Set when the request's first script starts: every later script shares it. */
  private deadline: number | undefined;
  private readonly query: string;

  /**
   * `nested` makes the scripts of a write a script makes through `items` (lib/scripts/record-hooks.ts);
   * `answering` answers the runs' host calls (tests inject faults through it).
   */
  constructor(
    private readonly request: ScriptRequest,
    private readonly nested: (request: ScriptRequest) => RecordScripts,
    private readonly answering: typeof hostCalls = hostCalls,
  ) {
    // Filled only for a login cookie (web-api.txt 4.6 rule 2); context.Query keeps the raw string anyway.
    this.query = request.principal.via === 'cookie' ? (request.event.rawQueryString ?? '') : '';
    this.shared = request.nesting?.shared ?? { userData: {} };
  }

  get depth(): number {
    return this.request.nesting?.depth ?? 0;
  }

  /**
   * Runs the site's scripts of `condition`; undefined when none runs. `hold` keeps a Before condition's
   * `items` writes until its save is applied (lib/scripts/host-calls.ts); `recordTitle` is
   * `context.RecordTitle` (the record's title, '' for one not yet created and for a bulk condition).
   */
  async run(
    condition: Condition,
    site: Site,
    model: FlatModel,
    saved?: FlatModel,
    hold?: ScriptCallContext['hold'],
    recordTitle = '',
  ): Promise<RunOutcome | undefined> {
    if (!settings().Script.ServerScript) return undefined;
    const enabled = scriptsOf(site.siteSettings).filter((script) => !script.Disabled);
    const scripts = enabled.filter((script) => !script.Shared && script[condition]);
    if (scripts.length === 0) return undefined;
    const shared = enabled
      .filter((script) => script.Shared)
      .map((script) => script.Body ?? '')
      .join('\n');
    const state = {
      model,
      saved: saved ?? {},
      siteSettings: site.siteSettings,
      context: this.context(site, condition, recordTitle),
      notifications: notificationsOf(site.siteSettings),
    };
    return this.execute(condition, site, scripts, shared, state, hold);
  }

  /**
   * A tenant's background script (lib/scripts/background/): `script` with the Shared ones' `shared` before
   * it, in condition BackgroundServerScript, with no site, an empty model and the site-less `context`.
   */
  async runBackground(
    script: ServerScript,
    shared: string,
    context: Record<string, unknown>,
  ): Promise<RunOutcome> {
    const state = { model: {}, saved: {}, siteSettings: {}, context, notifications: [] };
    return this.execute(BACKGROUND, undefined, [script], shared, state, undefined);
  }

  /** One condition's scripts as one job on a worker, with the host calls of the request's user. */
  private async execute(
    condition: Condition | typeof BACKGROUND,
    site: Site | undefined,
    scripts: readonly ServerScript[],
    shared: string,
    state: {
      readonly model: FlatModel;
      readonly saved: FlatModel;
      readonly siteSettings: Record<string, unknown>;
      readonly context: Record<string, unknown>;
      readonly notifications: unknown;
    },
    hold: ScriptCallContext['hold'],
  ): Promise<RunOutcome> {
    const { model, saved, siteSettings, context, notifications } = state;
    const job = {
      state: JSON.stringify({
        model,
        saved,
        siteSettings,
        userData: this.shared.userData,
        context,
        notifications,
      }),
      query: this.query,
      scripts: scripts.map((script) => ({
        code: wrap(script, shared),
        filename: `${nameOf(script)}.js`,
        timeOutMs: script.TimeOut ? script.TimeOut : Number.POSITIVE_INFINITY,
      })),
    };
    const deadlineFrom = (now: number) => {
      const own = now + settings().Script.ServerScriptTimeOut;
      this.deadline ??= Math.min(own, this.request.nesting?.deadline ?? own);
      return this.deadline;
    };
    const where = { siteId: site?.siteId ?? 0, condition };
    let running = 0;
    const calls = this.answering({
      principal: this.request.principal,
      site,
      condition,
      depth: this.depth,
      get deadline() {
        return deadlineFrom(Date.now());
      },
      hold: hold && ((write) => hold(this.kept(write, where, nameOf(scripts[running] as ServerScript)))),
      nested: (action, id, { writer, body } = {}) =>
        this.nested({
          ...this.request,
          principal: writer ?? this.request.principal,
          action,
          id,
          body: body ?? '',
          nesting: { depth: this.depth + 1, shared: this.shared, deadline: deadlineFrom(Date.now()) },
        }),
      where: {
        ...where,
        get script() {
          return nameOf(scripts[running] as ServerScript);
        },
      },
    });
    const result = await runInWorker(job, deadlineFrom, (call, script) => {
      running = Math.min(script, scripts.length - 1);
      return calls(call);
    });
    if (result.kind !== 'done') {
      const script = scripts[Math.min(result.script, scripts.length - 1)] as ServerScript;
      return this.failed(condition, site, script, result.what);
    }
    const { model: changed, userData, logs, caught, error, sends } = JSON.parse(result.result);
    this.shared.userData = userData ?? {};
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

  private context(site: Site, condition: Condition, recordTitle: string): Record<string, unknown> {
    const { body, ...request } = this.request;
    return {
      ...contextOf({ ...request, body: body ?? requestBody(request.event) }, site, recordTitle),
      Condition: condition,
      ServerScript: { ScriptDepth: this.depth, OnTesting: false },
    };
  }

  /**
   * A held write that fails once its save is applied cannot change the script's answer any more: the save
   * stands (lib/scripts/record-hooks.ts logs it), and the site's managers find it with the script errors.
   */
  private kept(
    write: () => Promise<void>,
    where: { siteId: number; condition: string },
    script: string,
  ): () => Promise<void> {
    return () =>
      write().catch(async (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        await recordScriptError(this.request.principal.tenantId, {
          ...where,
          script,
          reason: `server script "${script}" (site ${where.siteId}, ${where.condition}): a write held for the save failed when applied: ${why}`,
        });
        throw error;
      });
  }

  private async failed(
    condition: Condition | typeof BACKGROUND,
    site: Site | undefined,
    script: ServerScript,
    what: string,
  ): Promise<RunOutcome> {
    const siteId = site?.siteId ?? 0;
    const reason = `server script "${nameOf(script)}" (site ${siteId}, ${condition}) ${what}`;
    logger.error('server script failed', { siteId, condition, script: nameOf(script), reason });
    await recordScriptError(this.request.principal.tenantId, {
      siteId,
      condition,
      script: nameOf(script),
      reason,
    });
    return { kind: 'failed', reason };
  }
}
