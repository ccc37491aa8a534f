import { type Answer, describe, post } from './api';

/**
 * The browser object `$p` with the reference's names and argument shapes (spec 4.3; CONTRACT section 10):
 * each wrapper POSTs JSON with the login cookie and `X-Requested-With`, then calls `done(data)` with the
 * API's answer, or `fail(error)` with an object that has the answer's StatusCode and Message, and
 * `always()` either way. Each also returns a promise of the answer. `apiSessionsGet/Set/Delete` are
 * Kiroku's additions (the reference's browser object has no wrapper for the sessions API).
 */

export interface ApiArgs {
  readonly id?: number;
  readonly data?: Record<string, unknown>;
  readonly done?: (data: Answer) => void;
  readonly fail?: (error: { StatusCode: number; Message: string }) => void;
  readonly always?: () => void;
}

function wrapper(path: (id: number) => string) {
  return async (args: ApiArgs = {}): Promise<Answer | undefined> => {
    try {
      const answer = await post(path(Number(args.id ?? 0)), args.data ?? {});
      args.done?.(answer);
      return answer;
    } catch (error) {
      const statusCode = (error as { statusCode?: number }).statusCode ?? 0;
      if (args.fail) args.fail({ StatusCode: statusCode, Message: describe(error) });
      else throw error;
      return undefined;
    } finally {
      args.always?.();
    }
  };
}

export interface PageContext {
  /** The site and record the page shows, when it shows one. */
  siteId?: number;
  id?: number;
}

/** What `$p` knows of the page shown; pages set it as they load. */
export const pageContext: PageContext = {};

export function createP(context: PageContext) {
  return {
    /** The site and record of the current page (0 when none). */
    siteId: () => context.siteId ?? 0,
    id: () => context.id ?? 0,
    apiGetClosestSiteId: wrapper((id) => `api/items/${id}/getclosestsiteid`),
    apiGet: wrapper((id) => `api/items/${id}/get`),
    apiCreate: wrapper((id) => `api/items/${id}/create`),
    apiUpdate: wrapper((id) => `api/items/${id}/update`),
    apiDelete: wrapper((id) => `api/items/${id}/delete`),
    apiGetSite: wrapper((id) => `api/items/${id}/getsite`),
    /** `data`: From, To, Cc, Bcc, Title, Body, Attachments `[{Name, Base64, ContentType}]` (reference 5). */
    apiSendMail: wrapper((id) => `api/items/${id}/OutgoingMails/Send`),
    apiSessionsGet: wrapper(() => 'api/sessions/get'),
    apiSessionsSet: wrapper(() => 'api/sessions/set'),
    apiSessionsDelete: wrapper(() => 'api/sessions/delete'),
  };
}

export type BrowserObject = ReturnType<typeof createP>;

declare global {
  interface Window {
    $p: BrowserObject;
  }
}

/**
 * Runs a site's browser scripts (`SiteSettings.Scripts`: `{Title, Body, Disabled?}`) on its page, each in
 * its own function so that one script's error does not stop the others; the error is reported.
 */
export function runBrowserScripts(scripts: unknown, report: (message: string) => void): void {
  if (!Array.isArray(scripts)) return;
  for (const script of scripts as { Title?: string; Body?: string; Disabled?: boolean }[]) {
    if (script?.Disabled || typeof script?.Body !== 'string') continue;
    try {
      new Function('$p', script.Body)(window.$p);
    } catch (error) {
      report(`${script.Title ?? 'script'}: ${(error as Error).message}`);
    }
  }
}
