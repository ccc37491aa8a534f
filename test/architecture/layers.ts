import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The layers of the code base, bottom first (docs/contributing.md, "Layers"). A module may import modules of its own
 * layer's folder and of any layer below it, never one above: that is the one rule the picture keeps.
 */
export const layers: readonly (readonly string[])[] = [
  [
    'lib/errors.ts',
    'lib/messages.ts',
    'lib/log.ts',
    'lib/clock.ts',
    'lib/results.ts',
    'lib/zoned-time.ts',
    'lib/schema.ts',
    'lib/bounds.ts',
    'lib/query-strings.ts',
    'lib/case-insensitive.ts',
    'lib/config/',
    'lib/storage/',
    'lib/csv/',
    'lib/net/',
  ],
  ['lib/columns/'],
  ['lib/files/'],
  ['lib/accounts/'],
  ['lib/sessions/'],
  ['lib/mail/'],
  ['lib/sites/'],
  ['lib/items/'],
  ['lib/notifications/'],
  [
    'lib/packages/',
    'lib/search/',
    'lib/tasks/',
    'lib/imports/',
    'lib/exports/',
    'lib/scripts/',
    'lib/account-lists/',
    'lib/account-imports/',
  ],
  ['lib/http/', 'lib/routes.ts', 'lib/routes/', 'lib/openapi.ts', 'lib/streams.ts', 'lib/schedules.ts'],
  ['functions/', 'infra/', 'local/', 'scripts/', 'web/'],
  ['bench/'],
];

const root = resolve(import.meta.dirname, '../..');

/** The layer of a repository path, by the longest entry that names it; undefined for other folders. */
export function layerOf(path: string): { index: number; place: string } | undefined {
  let found: { index: number; place: string } | undefined;
  layers.forEach((places, index) => {
    for (const place of places) {
      const match = place.endsWith('/') ? path.startsWith(place) : path === place;
      if (match && (!found || place.length > found.place.length)) found = { index, place };
    }
  });
  return found;
}

export interface Violation {
  readonly from: string;
  readonly to: string;
}

/** Every relative import of the code (not tests) that points at a higher layer. */
export function upwardImports(): Violation[] {
  const violations: Violation[] = [];
  for (const file of sourceFiles()) {
    const from = layerOf(file);
    if (!from) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(root, resolve(root, dirname(file), match[1] as string));
      const to = layerOf(target) ?? layerOf(`${target}.ts`);
      if (to && to.index > from.index) violations.push({ from: file, to: target });
    }
  }
  return violations;
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = dir ? `${dir}/${name}` : name;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const top of ['lib', 'functions', 'infra', 'local', 'scripts', 'bench', 'web']) walk(top);
  return files;
}
