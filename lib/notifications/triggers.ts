import { ApiError } from '../errors';
import type { ItemRecord } from '../items/model';
import { CONDITION_PROPERTIES, compileView } from '../items/view/view';
import type { Site } from '../sites/model';
import type { NotificationSetting } from '../sites/notification-settings';
import { changed, monitoredColumns, type NoticeContext } from './format';

/**
 * Which of a site's notifications a record's change sends (the reference's `Notice` and
 * `NotificationUtilities.MeetConditions`): a creation those with AfterCreate not false, a deletion those
 * with AfterDelete not false, an update those with AfterUpdate not false whose monitored columns changed
 * and whose Before/After conditions hold. Disabled ones never.
 */

export type RecordEvent = 'Created' | 'Updated' | 'Deleted';

export interface RecordChange {
  readonly event: RecordEvent;
  /** The record before an update or a deletion. */
  readonly before?: ItemRecord;
  /** The record after a creation or an update. */
  readonly after?: ItemRecord;
}

export interface ConditionContext {
  readonly userId: number;
  readonly zone: string;
  readonly now: number;
}

/** A View named by a condition cannot be applied to a record (a Search, a filter that no longer parses). */
export class ConditionNotApplicable extends Error {
  override name = 'ConditionNotApplicable';
}

export function fires(
  notification: NotificationSetting,
  change: RecordChange,
  context: NoticeContext & ConditionContext,
): boolean {
  if (notification.Disabled === true) return false;
  switch (change.event) {
    case 'Created':
      return notification.AfterCreate !== false;
    case 'Deleted':
      return notification.AfterDelete !== false;
    case 'Updated': {
      const { before, after } = change;
      if (notification.AfterUpdate === false || !before || !after) return false;
      if (!changed(monitoredColumns(notification, context), before, after)) return false;
      return meetsConditions(notification, context.site, before, after, context);
    }
  }
}

/**
 * Before on the saved record, After on the new one, each a View of the site by Id: both must hold, or
 * either one under Expression Or (1) when both views exist. A view that does not exist matches everything.
 */
export function meetsConditions(
  notification: NotificationSetting,
  site: Site,
  before: ItemRecord,
  after: ItemRecord,
  context: ConditionContext,
): boolean {
  const beforeView = viewOf(site, notification.BeforeCondition);
  const afterView = viewOf(site, notification.AfterCondition);
  const beforeMatch = beforeView ? matches(site, beforeView, before, context) : true;
  const afterMatch = afterView ? matches(site, afterView, after, context) : true;
  if (notification.Expression === 1 && beforeView && afterView) return beforeMatch || afterMatch;
  return beforeMatch && afterMatch;
}

function viewOf(site: Site, id: number | undefined): Record<string, unknown> | undefined {
  if (!id) return undefined;
  const views = Array.isArray(site.siteSettings.Views) ? site.siteSettings.Views : [];
  return views.find(
    (view): view is Record<string, unknown> =>
      typeof view === 'object' && view !== null && Number((view as { Id?: unknown }).Id) === id,
  );
}

function matches(
  site: Site,
  view: Record<string, unknown>,
  record: ItemRecord,
  context: ConditionContext,
): boolean {
  const condition = Object.fromEntries(
    Object.entries(view).filter(([key]) => CONDITION_PROPERTIES.includes(key)),
  );
  try {
    const { userId, zone, now } = context;
    const compiled = compileView(site, condition, { userId, zone, now });
    if (compiled.search !== undefined) throw new ConditionNotApplicable(`View ${view.Id}: a Search`);
    return compiled.filter(record);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ConditionNotApplicable(`View ${view.Id}: ${error.message}`, { cause: error });
  }
}
