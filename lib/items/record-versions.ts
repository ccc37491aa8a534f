import { type AutoVerUpType, parseAutoVerUpType } from '../columns/site-settings';
import type { Site } from '../sites/model';
import { startOfDay } from '../zoned-time';
import type { ItemRecord } from './model';

/**
 * The version rule (CONTRACT 15), as the reference's Versions.MustVerUp and Versions.VerUp decide it: a
 * site's `AutoVerUpType` is Default (1), Always (2) or Disabled (3). Default makes a new version when the
 * record was last updated by another user or on another day; the day is the one of the caller's zone, as
 * the reference compares `UpdatedTime.DisplayValue.Date` with today in the user's time zone. `VerUp: true`
 * on a write forces a version whatever the site says.
 *
 * A departure on purpose: the reference's API applies Default's rule only where its editor (the VerUp check
 * box it ticks and locks) or a server script asks for it, so an API update under Default never makes a
 * version unless it says `VerUp: true`. Kiroku applies the site's rule the same way on every path that
 * updates a record (API, UI, import, upload), so a record's history does not depend on the client.
 */
/** The site's rule; a stored value Kiroku cannot read (refused when the settings are written) is Default. */
export function autoVerUpType(site: Site): AutoVerUpType {
  return parseAutoVerUpType(site.siteSettings.AutoVerUpType) ?? 'Default';
}

export interface VersionContext {
  /** Who writes now, and when (epoch ms). */
  readonly updator: number;
  readonly time: number;
  /** The caller's zone, whose day Default compares. */
  readonly zone: string;
  /** The write's `VerUp`. */
  readonly verUp?: boolean | undefined;
}

/** Whether the update of `before` makes a new version. */
export function mustVerUp(site: Site, before: ItemRecord, context: VersionContext): boolean {
  if (context.verUp === true) return true;
  switch (autoVerUpType(site)) {
    case 'Always':
      return true;
    case 'Disabled':
      return false;
    default:
      return (
        before.updator !== context.updator ||
        startOfDay(before.updatedAt, context.zone) !== startOfDay(context.time, context.zone)
      );
  }
}

/** The reference's Ver of the record after the update of `before`: one more on a version up. */
export function nextVersion(site: Site, before: ItemRecord, context: VersionContext): number {
  return mustVerUp(site, before, context) ? before.version + 1 : before.version;
}
