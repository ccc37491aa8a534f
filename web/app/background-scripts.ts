import { post } from './api';

/**
 * A tenant's background (scheduled) server scripts through `api/backgroundscripts/*`, for its privileged
 * users, and a site's last script failures through `api/items/{siteId}/scripterrors/get`, for its managers.
 * Who is privileged is the server's setting, so the header asks the page's read once per login (a 403:
 * not privileged), as the mailbox does.
 */

export type ScheduleType = 'hourly' | 'daily' | 'weekly' | 'monthly' | 'onlyonce';
export const SCHEDULE_TYPES: readonly ScheduleType[] = ['hourly', 'daily', 'weekly', 'monthly', 'onlyonce'];

export interface Schedule extends Record<string, unknown> {
  Id?: number;
  ScheduleType: ScheduleType;
  ScheduleTimeZoneId?: string;
  ScheduleHourlyTime?: string;
  ScheduleDailyTime?: string;
  ScheduleWeeklyWeek?: string;
  ScheduleWeeklyTime?: string;
  ScheduleMonthlyMonth?: string;
  ScheduleMonthlyDay?: string;
  ScheduleMonthlyTime?: string;
  ScheduleOnlyOnceTime?: string;
}

export interface BackgroundScript extends Record<string, unknown> {
  Id?: number;
  Title?: string;
  Name?: string;
  Body: string;
  UserId: number;
  Disabled?: boolean;
  Shared?: boolean;
  Functionalize?: boolean;
  TryCatch?: boolean;
  TimeOut?: number;
  backgoundSchedules: Schedule[];
}

export interface ScriptRun {
  readonly Id: number;
  readonly NextRunTime?: string;
  readonly LastRunTime?: string;
  readonly LastStatus?: 'Succeeded' | 'Failed' | 'Skipped';
  readonly LastMessage?: string;
}

export interface ScriptError {
  readonly Time: string;
  readonly SiteId: number;
  readonly Condition: string;
  readonly Script: string;
  readonly Reason: string;
}

export interface BackgroundState {
  readonly enabled: boolean;
  readonly scripts: BackgroundScript[];
  readonly runs: readonly ScriptRun[];
  readonly errors: readonly ScriptError[];
}

export async function readBackgroundScripts(): Promise<BackgroundState> {
  const answer = await post<{
    Response: {
      Enabled: boolean;
      BackgroundServerScripts: { Scripts: BackgroundScript[] };
      Runs: ScriptRun[];
      Errors: ScriptError[];
    };
  }>('api/backgroundscripts/get');
  const { Enabled, BackgroundServerScripts, Runs, Errors } = answer.Response;
  return { enabled: Enabled, scripts: BackgroundServerScripts.Scripts, runs: Runs, errors: Errors };
}

export async function saveBackgroundScripts(scripts: readonly BackgroundScript[]): Promise<string> {
  const answer = await post('api/backgroundscripts/update', {
    BackgroundServerScripts: { Scripts: scripts },
  });
  return String(answer.Message ?? '');
}

export async function runNow(id: number): Promise<string> {
  const answer = await post('api/backgroundscripts/run', { Id: id });
  return String(answer.Message ?? '');
}

export async function siteScriptErrors(siteId: number): Promise<readonly ScriptError[]> {
  const answer = await post<{ Response: { Errors: ScriptError[] } }>(`api/items/${siteId}/scripterrors/get`);
  return answer.Response.Errors;
}

const asked = new Map<number, Promise<boolean>>();

/** Whether the logged-in user may open the background scripts page (asked once per user id). */
export function mayManageBackgroundScripts(userId: number): Promise<boolean> {
  let answer = asked.get(userId);
  if (!answer) {
    answer = readBackgroundScripts().then(
      () => true,
      () => false,
    );
    asked.set(userId, answer);
  }
  return answer;
}
