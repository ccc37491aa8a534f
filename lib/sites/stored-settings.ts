import { checkFormulas } from '../columns/formulas';
import { linkedSiteIds, normalizeSiteSettings } from '../columns/site-settings';
import { InvalidInputError } from '../errors';
import type { ReferenceType } from './model';
import { notificationProblems } from './notification-settings';
import { liveSiteIds } from './store';

/**
 * A site's SiteSettings in the form they are stored and answered (CONTRACT 11): migrated and written as a
 * diff by lib/columns/site-settings.ts, with the Links of `[[siteId]]` choices whose target is a site of
 * the tenant. Values of the wrong JSON type for what the column model reads are a 400 naming each.
 */
export async function storedSiteSettings(
  tenantId: number,
  referenceType: ReferenceType,
  siteId: number,
  input: Readonly<Record<string, unknown>>,
  /** The columns whose Links are made again; all columns when absent. */
  linksOf?: ReadonlySet<string>,
  /** Where the settings are in the request, for the names in a 400 (`Sites[2].SiteSettings.`). */
  where = 'SiteSettings.',
): Promise<Record<string, unknown>> {
  const loads = await loadingSites(tenantId, columnsOf(input));
  const { settings, problems } = normalizeSiteSettings(input, {
    referenceType,
    siteId,
    loads: (id) => loads.has(id),
    ...(linksOf ? { linksOf } : {}),
  });
  // A formula no write could apply is refused with the site, not left to fail every later write.
  const formulas = checkFormulas(settings, referenceType)
    .filter(({ severity }) => severity === 'error')
    .map(({ formula, reason }) => ({ property: 'SiteSettings.Formulas', problem: `${formula}: ${reason}` }));
  // A notification that could never be sent is refused with the site, not stored to never fire.
  const notifications = problems.length === 0 ? notificationProblems(settings, referenceType) : [];
  const refused = [...problems, ...formulas, ...notifications];
  if (refused.length > 0) {
    throw new InvalidInputError(
      refused.map(({ property, problem }) => ({
        Property: property.replace(/^SiteSettings\./, where),
        Problem: problem,
      })),
    );
  }
  return settings;
}

function columnsOf(input: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  const key = Object.keys(input).find((name) => name.toLowerCase() === 'columns');
  const columns = key === undefined ? undefined : input[key];
  if (!Array.isArray(columns)) return [];
  return columns
    .filter((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))
    .map((entry: Record<string, unknown>) => {
      const name = Object.keys(entry).find((property) => property.toLowerCase() === 'choicestext');
      return { ChoicesText: name === undefined ? undefined : entry[name] };
    });
}

/** The `[[siteId]]` targets that are sites of the tenant, not on their way out (`AccessStatus.Selected`). */
async function loadingSites(
  tenantId: number,
  columns: readonly Record<string, unknown>[],
): Promise<Set<number>> {
  const ids = linkedSiteIds(columns);
  return ids.length === 0 ? new Set() : liveSiteIds(tenantId, ids);
}
