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
