import type { ChildSite, Site } from './model';

export type { ChildSite, RecordData, Site } from './model';

/**
 * Calls to Kiroku's API from the page: same origin, the login cookie, `X-Requested-With` (the CSRF rule of
 * CONTRACT section 1), JSON in and out. Every failure becomes an ApiFailure whose text a person can read.
 */

export interface Problem {
  readonly Property?: string;
  readonly Problem: string;
}

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly problems: readonly Problem[] = [],
  ) {
    super(message);
  }

  /** The message and what was wrong, in words. */
  describe(): string {
    const details = this.problems.map((p) => (p.Property ? `${p.Property}: ${p.Problem}` : p.Problem));
    return details.length ? `${this.message} (${details.join('; ')})` : this.message;
  }
}

export type Answer = Record<string, unknown> & { StatusCode?: number; Message?: string; Id?: number };

/** A URL under the deployment's base path (the page's `<base href>`). */
export function url(path: string): string {
  return new URL(path.replace(/^\//, ''), document.baseURI).toString();
}

export const jsonHeaders = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

/** POSTs `body` as JSON to `path`; resolves the answer when its StatusCode is 200, else rejects. */
export async function post<T extends Answer = Answer>(path: string, body: unknown = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url(path), {
      method: 'POST',
      credentials: 'same-origin',
      headers: jsonHeaders,
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiFailure(`The server could not be reached (${(error as Error).message}).`, 0);
  }
  return readAnswer<T>(response);
}

export async function readAnswer<T extends Answer>(response: Response): Promise<T> {
  let answer: Answer;
  try {
    answer = (await response.json()) as Answer;
  } catch {
    throw new ApiFailure(
      `The server answered ${response.status} without a readable result.`,
      response.status,
    );
  }
  const status = typeof answer.StatusCode === 'number' ? answer.StatusCode : response.status;
  if (status !== 200) {
    const message = typeof answer.Message === 'string' ? answer.Message : `Error ${status}`;
    throw new ApiFailure(message, status, Array.isArray(answer.Errors) ? (answer.Errors as Problem[]) : []);
  }
  return answer as T;
}

/** Text for any error, for the page. */
export function describe(error: unknown): string {
  if (error instanceof ApiFailure) return error.describe();
  return error instanceof Error ? error.message : String(error);
}

/** The permission flags (CONTRACT section 5). */
export const Permission = {
  Read: 1,
  Create: 2,
  Update: 4,
  Delete: 8,
  Export: 32,
  Import: 64,
  ManageSite: 128,
  ManagePermission: 256,
} as const;

/** The sites under a folder (0: the top level); `Deleted`: those in its recycle bin the caller may restore. */
export async function childSites(parentId: number, tableType?: 'Deleted'): Promise<ChildSite[]> {
  const answer = await post<{ Response: { Data: ChildSite[] } }>(
    `api/items/${parentId}/childsites`,
    tableType ? { TableType: tableType } : {},
  );
  return answer.Response.Data;
}

export async function getSite(siteId: number): Promise<Site> {
  const answer = await post<{ Response: { Data: Site } }>(`api/items/${siteId}/getsite`);
  return answer.Response.Data;
}

/** A column's settings in `SiteSettings.Columns` (the reference's names). */
export interface ColumnSetting {
  readonly ColumnName?: string;
  readonly LabelText?: string;
}

/** The site's `SiteSettings.Columns`, or none when it holds no list. */
export function siteColumns(site: Site): readonly ColumnSetting[] {
  const columns = site.SiteSettings.Columns;
  return Array.isArray(columns) ? (columns as ColumnSetting[]) : [];
}

/** The record's id, whatever its kind (IssueId, ResultId, WikiId). */
export function recordId(record: Record<string, unknown>): number {
  return Number(record.IssueId ?? record.ResultId ?? record.WikiId ?? 0);
}

let tables: Promise<ChildSite[]> | undefined;

/**
 * The tables (Issues, Results, Wikis) the caller can read, found by walking the site tree from the top
 * level one level at a time (childsites), at most 1,000 sites; read once per page load. For picking a
 * link target by name.
 */
export function readableTables(): Promise<ChildSite[]> {
  tables ??= (async () => {
    const found: ChildSite[] = [];
    let level = [0];
    let seen = 0;
    while (level.length > 0 && seen < 1000) {
      const children = (await Promise.all(level.map((id) => childSites(id).catch(() => [])))).flat();
      seen += children.length;
      found.push(...children.filter((site) => ['Issues', 'Results', 'Wikis'].includes(site.ReferenceType)));
      level = children.filter((site) => site.ReferenceType === 'Sites').map((site) => site.SiteId);
    }
    return found;
  })().catch((error) => {
    tables = undefined;
    throw error;
  });
  return tables;
}
