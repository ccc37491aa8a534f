import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ReferenceType } from '../lib/columns/definitions';
import { designOf } from '../lib/columns/site-settings';

/**
 * The round trip of a site template (CONTRACT 11: every built-in template is accepted by createsite
 * unchanged and keeps its design): createsite from the template, getsite, the design compared in both
 * languages; then createsite from what getsite answered, getsite again, and the two answers equal but for
 * SiteId. Used by `npm run check:templates` and by the integration test of Kiroku's own templates.
 */

type Settings = Record<string, unknown>;

export interface TemplateFile {
  /** `Template12`. */
  readonly id: string;
  readonly title: string;
  readonly referenceType: ReferenceType;
  readonly siteSettings: Settings;
}

export interface TemplateOutcome {
  readonly id: string;
  readonly accepted: boolean;
  /** Why it was refused, or what differed. */
  readonly reason?: string;
  /** The stored settings getsite answered. */
  readonly stored?: Settings;
}

const json = async (path: string) => JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));

/** Every `TemplateNN_SiteSettingsTemplate.json` of a folder with its `TemplateNN.json`, by number. */
export async function readTemplates(folder: string): Promise<TemplateFile[]> {
  const names = (await readdir(folder)).filter((name) =>
    /^Template\d+_SiteSettingsTemplate\.json$/.test(name),
  );
  const ids = names.map((name) => name.replace('_SiteSettingsTemplate.json', ''));
  ids.sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
  return Promise.all(
    ids.map(async (id) => {
      const siteSettings = (await json(join(folder, `${id}_SiteSettingsTemplate.json`))) as Settings;
      const about = (await json(join(folder, `${id}.json`)).catch(() => ({}))) as Settings;
      return {
        id,
        title: typeof about.Title === 'string' && about.Title !== '' ? about.Title : id,
        referenceType: siteSettings.ReferenceType as ReferenceType,
        siteSettings,
      };
    }),
  );
}

type Post = (path: string, body: Settings) => Promise<Settings>;

/** A poster of JSON to the service at `url` (its API root, without a trailing slash). */
export function poster(url: string): Post {
  return async (path, body) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Settings;
  };
}

export async function checkTemplate(
  post: Post,
  apiKey: string,
  template: TemplateFile,
): Promise<TemplateOutcome> {
  const { id, referenceType } = template;
  const create = async (siteSettings: Settings) => {
    const body = {
      ApiKey: apiKey,
      Title: template.title,
      ReferenceType: referenceType,
      SiteSettings: siteSettings,
    };
    const created = await post('/api/items/0/createsite', body);
    if (created.StatusCode !== 200)
      return `${created.StatusCode} ${created.Message} ${JSON.stringify(created.Errors ?? [])}`;
    const read = await post(`/api/items/${created.Id}/getsite`, { ApiKey: apiKey });
    return ((read.Response as Settings).Data as Settings).SiteSettings as Settings;
  };
  const stored = await create(template.siteSettings);
  if (typeof stored === 'string') return { id, accepted: false, reason: `refused: ${stored}` };
  for (const language of ['ja', 'en'] as const) {
    const before = plain(designOf(template.siteSettings, referenceType, language));
    const after = plain(designOf(stored, referenceType, language));
    if (!isDeepStrictEqual(before, after)) {
      return {
        id,
        accepted: false,
        reason: `design differs (${language}): ${differences(before, after)}`,
        stored,
      };
    }
  }
  const again = await create(stored);
  if (typeof again === 'string')
    return { id, accepted: false, reason: `its stored form refused: ${again}`, stored };
  if (!isDeepStrictEqual({ ...again, SiteId: 0 }, { ...stored, SiteId: 0 })) {
    return { id, accepted: false, reason: `round trip differs: ${differences(stored, again)}`, stored };
  }
  return { id, accepted: true, stored };
}

/** As JSON carries it: no undefined values. */
const plain = (value: Settings): Settings => JSON.parse(JSON.stringify(value));

function differences(a: Settings, b: Settings): string {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys
    .filter((key) => !isDeepStrictEqual(a[key], b[key]))
    .map(
      (key) => `${key}: ${JSON.stringify(a[key])?.slice(0, 200)} ≠ ${JSON.stringify(b[key])?.slice(0, 200)}`,
    )
    .join('; ');
}
