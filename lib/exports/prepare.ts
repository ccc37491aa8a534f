import { callerLanguage } from '../accounts/caller-language';
import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import type { Language } from '../columns/definitions';
import { BadRequestError, NotFoundError } from '../errors';
import { compileViewFor } from '../items/record-get';
import { type CompiledView, sorterNamesIn, withSearch } from '../items/view/view';
import { recordIdsMatching } from '../search/query';
import type { Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant, sitePermission } from '../sites/permissions';
import { type ExportDefinition, exportDefinition } from './definition';
import type { ExportSettings } from './schemas';

/**
 * What an export needs before its first row, for the request and for each page of a background export
 * alike: the site (Issues or Results, which the caller may read, else 404, and export, else 403), the
 * export's definition, and the View compiled as items/get compiles it (what it cannot apply is a 400).
 */

export interface ExportRequestInput {
  readonly View?: Record<string, unknown> | null;
  readonly Export?: ExportSettings | null;
  readonly ExportId?: number;
}

export interface PreparedExport {
  readonly site: Site;
  readonly definition: ExportDefinition;
  readonly view: CompiledView;
  /** The View's sorted columns: none in the default order, which the index keeps. */
  readonly sortedNames: readonly string[];
  readonly language: Language;
  readonly zone: string;
}

const EXPORTABLE = new Set(['Issues', 'Results']);

export async function exportableSite(principal: Principal, siteId: number): Promise<Site> {
  const site = await siteInTenant(principal, siteId);
  if (!((await sitePermission(principal, site)) & Permission.Read))
    throw new NotFoundError(`user ${principal.userId} may not read site ${siteId}`);
  if (!EXPORTABLE.has(site.referenceType))
    throw new BadRequestError(
      `site ${siteId} is a ${site.referenceType} site: only Issues and Results export`,
    );
  await requirePermission(principal, site, Permission.Export);
  return site;
}

export async function prepareExport(
  principal: Principal,
  siteId: number,
  input: ExportRequestInput,
): Promise<PreparedExport> {
  const site = await exportableSite(principal, siteId);
  const language = callerLanguage(principal);
  const definition = exportDefinition(principal, site, language, input);
  const compiled = compileViewFor(principal, site, input.View, true);
  const view = await withSearch(compiled, site.tenantId, [site.siteId], recordIdsMatching);
  const sortedNames = view.defaultOrder ? [] : sorterNamesIn(input.View ?? undefined);
  return { site, definition, view, sortedNames, language, zone: callerZone(principal) };
}
