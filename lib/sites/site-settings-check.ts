import * as z from 'zod';
import { deeperThan, MAX_JSON_DEPTH } from '../bounds';
import { UnsupportedInputError } from '../errors';

/**
 * Parts of SiteSettings that Kiroku does not apply yet (CONTRACT 5.1): a site holding them would promise
 * processes and status rules that no write runs, so createsite, updatesite, updatesitesettings and a
 * package refuse them by name rather than store them. An empty list (or null) holds nothing and passes,
 * as the reference's own exports may carry one.
 */
const UNAPPLIED = ['Processes', 'StatusControls'] as const;

/** Refuses settings that hold one of the unapplied parts; `where` prefixes the names in the message. */
export function refuseUnappliedSettings(
  siteSettings: Readonly<Record<string, unknown>> | undefined,
  where = 'SiteSettings.',
): void {
  const found = Object.entries(siteSettings ?? {})
    .filter(([key, value]) => isUnapplied(key) && !holdsNothing(value))
    .map(([key]) => `${where}${key}`);
  if (found.length > 0) {
    throw new UnsupportedInputError(`${found.join(', ')}: Processes and StatusControls are not available.`);
  }
}

// Property names match without case (CONTRACT section 1).
function isUnapplied(key: string): boolean {
  return UNAPPLIED.some((name) => name.toLowerCase() === key.toLowerCase());
}

function holdsNothing(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** updatesitesettings' Processes and StatusControls: taken only to be refused by name. */
export const unappliedPart = z
  .unknown()
  .refine((value) => !deeperThan(value, MAX_JSON_DEPTH), {
    message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
    params: { bound: true },
  })
  .meta({
    description: `not available in Kiroku: anything but null or [] is a 400 naming it; JSON at most ${MAX_JSON_DEPTH} levels`,
  });
