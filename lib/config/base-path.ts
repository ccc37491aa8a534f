/**
 * The sub-directory every path sits under (CONTRACT section 1): KIROKU_BASE_PATH locally, the stage or
 * base-path mapping in AWS. Normalised: a leading slash, no trailing one; '' for none.
 */
export function basePath(): string {
  return normalizeBasePath(process.env.KIROKU_BASE_PATH);
}

export function normalizeBasePath(path: string | undefined): string {
  const trimmed = (path ?? '').trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The path below `base` ('/' for the base itself), or undefined for a path outside it. */
export function pathBelowBase(rawPath: string, base: string): string | undefined {
  const inside = base === '' || rawPath === base || rawPath.startsWith(`${base}/`);
  return inside ? rawPath.slice(base.length) || '/' : undefined;
}
