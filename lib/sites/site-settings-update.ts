import * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { deeperThan, MAX_JSON_DEPTH } from '../bounds';
import { now } from '../clock';
import { definitionsOf } from '../columns/definitions';
import { defaultEditorColumns } from '../columns/layouts';
import { BadRequestError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { apiRequest, text } from '../schema';
import type { Site } from './model';
import { Permission, requirePermission, siteInTenant } from './permissions';
import * as repository from './repository';
import { numbered, scriptsOf, serverScripts } from './site-scripts';
import { refuseUnappliedSettings, unappliedPart } from './site-settings-check';
import { storedSiteSettings } from './stored-settings';

/**
 * `items/{siteId}/updatesitesettings` (CONTRACT sections 8 and 11): the parts of SiteSettings given at the
 * top level of the body, merged into the stored ones as the reference's `SiteSettingsApiModel` merges them:
 * Columns per column (the properties given override, the others stay), the EditorColumnHash tabs given,
 * GridColumns and FilterColumns replaced, Links per ColumnName, ServerScripts by Id. Processes and
 * StatusControls are refused rather than dropped.
 */

const bounded = <T extends z.ZodType>(schema: T) =>
  schema.refine((value) => !deeperThan(value, MAX_JSON_DEPTH), {
    message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
    params: { bound: true },
  });
const columnName = text({ min: 1, max: 256 });
const columnNames = z.array(columnName).max(1000);
const named = z
  .object({ ColumnName: columnName })
  .catchall(
    z
      .unknown()
      .meta({ description: `any JSON; the list at most ${MAX_JSON_DEPTH} levels of objects and arrays` }),
  );

export const siteSettingsUpdateRequest = z.strictObject({
  ...apiRequest,
  ServerScripts: serverScripts.optional(),
  Columns: bounded(z.array(named).max(1000))
    .optional()
    .meta({ description: 'Column entries: ColumnName and the properties to change; the others are kept' }),
  EditorColumnHash: z
    .record(text({ min: 1, max: 64 }), columnNames)
    .optional()
    .meta({ description: 'Editor tabs (`General`, `_Tab-N`), each replaced whole; tabs not given are kept' }),
  GridColumns: columnNames.optional(),
  FilterColumns: columnNames.optional(),
  Links: bounded(z.array(named).max(1000))
    .optional()
    .meta({ description: 'Links, matched by ColumnName: the properties given override; a new one is added' }),
  // Taken only to be refused by name (lib/sites/site-settings-check.ts).
  Processes: unappliedPart.optional(),
  StatusControls: unappliedPart.optional(),
});
type Input = z.infer<typeof siteSettingsUpdateRequest>;
type Entry = Record<string, unknown>;

export async function updateSiteSettings(
  principal: Principal,
  siteId: number,
  input: Input,
): Promise<Outcome> {
  refuseUnappliedSettings({ Processes: input.Processes, StatusControls: input.StatusControls }, '');
  const before = await siteInTenant(principal, siteId);
  await requirePermission(principal, before, Permission.ManageSite);
  const merged = mergedSettings(before, input);
  const { tenantId } = principal;
  const given = new Set((input.Columns ?? []).map((column) => column.ColumnName));
  // The given columns' links are made again from their ChoicesText first; the Links given apply after.
  let siteSettings = await storedSiteSettings(tenantId, before.referenceType, siteId, merged, given, '');
  if (input.Links) {
    siteSettings = { ...siteSettings, Links: mergedLinks(siteSettings.Links, input.Links) };
    siteSettings = await storedSiteSettings(
      tenantId,
      before.referenceType,
      siteId,
      siteSettings,
      new Set(),
      '',
    );
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

function mergedSettings(before: Site, input: Input): Entry {
  const settings = { ...before.siteSettings };
  if (input.ServerScripts) {
    settings.ServerScripts = numbered(scriptsOf(before.siteSettings), input.ServerScripts);
  }
  if (input.Columns) settings.Columns = mergedColumns(before, input.Columns);
  if (input.EditorColumnHash) {
    const stored = settings.EditorColumnHash;
    const tabs = isObject(stored) ? stored : { General: [...defaultEditorColumns(before.referenceType)] };
    settings.EditorColumnHash = { ...tabs, ...input.EditorColumnHash };
  }
  if (input.GridColumns) settings.GridColumns = input.GridColumns;
  if (input.FilterColumns) settings.FilterColumns = input.FilterColumns;
  return settings;
}

/** Each given entry over the stored one of its column (or the definition's, when none is stored). */
function mergedColumns(before: Site, given: readonly Entry[]): Entry[] {
  const known = new Set(definitionsOf(before.referenceType).map((definition) => definition.columnName));
  const columns = entries(before.siteSettings.Columns);
  given.forEach((entry, index) => {
    const name = String(entry.ColumnName);
    if (!known.has(name)) {
      throw new BadRequestError(
        `Columns[${index}]: ${before.referenceType} has no column ${name}`,
        `Columns[${index}]`,
      );
    }
    const at = columns.findIndex((column) => column.ColumnName === name);
    const changed = { ...(columns[at] ?? {}), ...withoutNulls(entry) };
    if (at >= 0) columns[at] = changed;
    else columns.push(changed);
  });
  return columns;
}

function mergedLinks(stored: unknown, given: readonly Entry[]): Entry[] {
  const links = entries(stored);
  for (const link of given) {
    const at = links.findIndex((known) => known.ColumnName === link.ColumnName);
    if (at >= 0) links[at] = { ...links[at], ...withoutNulls(link) };
    else links.push(withoutNulls(link));
  }
  return links;
}

const isObject = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const entries = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter(isObject).map((e) => ({ ...e })) : [];
const withoutNulls = (entry: Entry): Entry =>
  Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== null && value !== undefined));
