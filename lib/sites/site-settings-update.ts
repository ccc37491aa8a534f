import * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { apiRequest } from '../schema';
import type { Site } from './model';
import { Permission, requirePermission, siteInTenant } from './permissions';
import * as repository from './repository';
import { numbered, scriptsOf, serverScripts } from './site-scripts';
import { refuseUnappliedSettings, unappliedPart } from './site-settings-check';

/**
 * `items/{siteId}/updatesitesettings` (CONTRACT section 8): the parts of SiteSettings given at the top level
 * of the body, matched by Id into the stored lists. Kiroku keeps ServerScripts this way; any other part is
 * refused rather than dropped.
 */
export const siteSettingsUpdateRequest = z.strictObject({
  ...apiRequest,
  ServerScripts: serverScripts.optional(),
  // Taken only to be refused by name (lib/sites/site-settings-check.ts).
  Processes: unappliedPart.optional(),
  StatusControls: unappliedPart.optional(),
});

export async function updateSiteSettings(
  principal: Principal,
  siteId: number,
  input: z.infer<typeof siteSettingsUpdateRequest>,
): Promise<Outcome> {
  refuseUnappliedSettings({ Processes: input.Processes, StatusControls: input.StatusControls }, '');
  const before = await siteInTenant(principal, siteId);
  await requirePermission(principal, before, Permission.ManageSite);
  const siteSettings = { ...before.siteSettings };
  if (input.ServerScripts) {
    siteSettings.ServerScripts = numbered(scriptsOf(before.siteSettings), input.ServerScripts);
  }
  const after: Site = {
    ...before,
    siteSettings,
    updator: principal.userId,
    updatedAt: now(),
    ver: before.ver + 1,
  };
  await repository.updateSite(before, after);
  return { id: siteId, message: messages.updated(after.title) };
}
