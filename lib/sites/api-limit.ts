import { now } from '../clock';
import { settings } from '../config/settings';
import { OverLimitApiError } from '../errors';
import type { ApiLimits } from '../results';
import type { Site } from './model';
import { countApiCall } from './repository';

/**
 * Api.LimitPerSite (reference/pleasanter-behaviour.md 7.5): calls per site per day, 0 = unlimited. Days are
 * UTC days (the reference uses the caller's time zone; one zone for every caller keeps one counter per
 * day). Over the limit is a 429 and is not counted.
 */
export async function useApiCall(site: Site): Promise<ApiLimits> {
  const limit = settings().Api.LimitPerSite;
  if (limit === 0) return {};
  const day = new Date(now()).toISOString().slice(0, 10);
  const count = await countApiCall(site, day, limit);
  if (count === undefined) throw new OverLimitApiError(site.siteId, limit);
  return { limitPerDate: limit, limitRemaining: limit - count };
}
