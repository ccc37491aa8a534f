import * as z from 'zod';
import { deeperThan, MAX_JSON_DEPTH } from '../bounds';
import { BadRequestError } from '../errors';
import { text } from '../schema';

/**
 * `SiteSettings.ServerScripts` (CONTRACT section 8): the reference's stored fields of a ServerScript, by
 * their names; its form names (`ServerScriptBeforeCreate`, `ServerScriptBody`...) are taken as aliases.
 */

/** A site holds at most this many scripts, each body at most 64 KB of UTF-8. */
export const MAX_SCRIPTS = 100;
export const MAX_BODY_BYTES = 64 * 1024;

/** The conditions Kiroku runs, with the record APIs that fire them. */
export const conditions = [
  'WhenloadingRecord',
  'BeforeCreate',
  'AfterCreate',
  'BeforeUpdate',
  'AfterUpdate',
  'BeforeDelete',
  'AfterDelete',
  'BeforeBulkDelete',
  'AfterBulkDelete',
] as const;
export type Condition = (typeof conditions)[number];

/**
 * The reference's other conditions belong to its screens, formulas and bulk or background jobs, none of
 * which the API has; true would promise a run that never comes, so only false is taken.
 */
export const screenConditions = [
  'WhenloadingSiteSettings',
  'WhenViewProcessing',
  'BeforeFormula',
  'AfterFormula',
  'BeforeOpeningPage',
  'BeforeOpeningRow',
  'Background',
] as const;

/** A condition or option flag: true or false, or 1 or 0 as the reference's deserializer takes them. */
export const flag = z
  .union([z.boolean(), z.number().int().min(0).max(1)])
  .transform((value) => value === true || value === 1);
const off = z
  .union([z.literal(false), z.number().int().min(0).max(0)], {
    message: 'this condition does not run through the API; only false is taken',
  })
  .transform(() => false);

const script = z.strictObject({
  Id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  Title: text({ max: 1024 }).optional(),
  Name: text({ max: 1024 }).optional(),
  /** Required for a new script; updatesitesettings may leave it out to change other fields by Id. */
  Body: text({ max: MAX_BODY_BYTES })
    .refine((body) => Buffer.byteLength(body) <= MAX_BODY_BYTES, {
      message: `a script body is at most ${MAX_BODY_BYTES} bytes`,
    })
    .optional(),
  /** updatesitesettings only: removes the script of this Id. */
  Delete: flag.optional(),
  Disabled: flag.optional(),
  Functionalize: flag.optional(),
  TryCatch: flag.optional(),
  /** Milliseconds; 0 or absent: the setting Script.ServerScriptTimeOut alone. */
  TimeOut: z.number().int().min(0).max(2_147_483_647).optional(),
  Shared: flag.optional(),
  ...Object.fromEntries(conditions.map((name) => [name, flag.optional()])),
  ...Object.fromEntries(screenConditions.map((name) => [name, off.optional()])),
});

const fieldNames = Object.keys(script.shape);
const byLowerCase = new Map(fieldNames.map((name) => [name.toLowerCase(), name]));

/** `ServerScriptBeforeCreate` → `BeforeCreate`, `body` → `Body`; other names are left for strictObject. */
function canonicalNames(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '__proto__') continue;
    const lower = key.toLowerCase();
    const name = byLowerCase.get(lower) ?? byLowerCase.get(lower.replace(/^serverscript/, '')) ?? key;
    if (!(name in renamed) || name === key) renamed[name] = item;
  }
  return renamed;
}

// Named: the OpenAPI document writes it once and refers to it from every site operation.
export const serverScript = z.preprocess(canonicalNames, script).meta({ id: 'ServerScript' });
export type ServerScript = z.output<typeof script> & Partial<Record<Condition, boolean>>;

export const serverScripts = z.array(serverScript).max(MAX_SCRIPTS);

/** The whole list, as createsite, updatesite and a package give it: every script has its Body. */
const wholeList = serverScripts.superRefine((list, check) => {
  list.forEach((entry, index) => {
    if (entry.Body === undefined)
      check.addIssue({ code: 'custom', path: [index, 'Body'], message: 'required' });
    if (entry.Delete)
      check.addIssue({ code: 'custom', path: [index, 'Delete'], message: 'updatesitesettings only' });
  });
});

/** The site settings a request may carry: free-form, except ServerScripts, which is checked. */
export const siteSettingsInput = z
  .preprocess(
    (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      // The list's name matches without case, like every property name (CONTRACT section 1).
      const entries = Object.entries(value).map(([key, item]): [string, unknown] =>
        key.toLowerCase() === 'serverscripts' ? ['ServerScripts', item] : [key, item],
      );
      return Object.fromEntries(entries);
    },
    z
      .object({ ServerScripts: wholeList.optional() })
      .catchall(
        z.unknown().meta({
          description: `free-form JSON, the whole SiteSettings at most ${MAX_JSON_DEPTH} levels deep`,
        }),
      )
      .refine((value) => !deeperThan(value, MAX_JSON_DEPTH), {
        message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
        params: { bound: true },
      })
      .transform((settings) =>
        settings.ServerScripts
          ? { ...settings, ServerScripts: numbered([], settings.ServerScripts) }
          : settings,
      ),
  )
  .meta({
    id: 'SiteSettingsInput',
    description: `free-form JSON, at most ${MAX_JSON_DEPTH} levels of objects and arrays`,
  });

/**
 * The reference's update of the list by `Id`: a script with a known Id has the given fields changed in its
 * place (or is removed, with `Delete`), one without an Id (or with an unknown one) is added at the end,
 * with the next free Id when it has none. A new script needs a Body; the list keeps at most MAX_SCRIPTS.
 */
export function numbered(stored: readonly ServerScript[], incoming: readonly ServerScript[]): ServerScript[] {
  let list = [...stored];
  let next = Math.max(0, ...list.map((entry) => entry.Id ?? 0), ...incoming.map((entry) => entry.Id ?? 0));
  for (const { Delete, ...entry } of incoming) {
    const at = entry.Id === undefined ? -1 : list.findIndex((known) => known.Id === entry.Id);
    if (Delete) list = list.filter((known) => known.Id !== entry.Id);
    else if (at >= 0) list[at] = { ...list[at], ...entry };
    else if (entry.Body === undefined) throw new BadRequestError(`ServerScripts: a new script needs a Body`);
    else list.push({ ...entry, Id: entry.Id ?? ++next });
  }
  if (list.length > MAX_SCRIPTS) throw new BadRequestError(`ServerScripts: more than ${MAX_SCRIPTS} scripts`);
  return list;
}

/** The scripts stored in a site's settings (already checked when they were written). */
export function scriptsOf(siteSettings: Record<string, unknown>): ServerScript[] {
  const list = siteSettings.ServerScripts;
  return Array.isArray(list) ? (list as ServerScript[]) : [];
}
