import type { Language } from '../columns/definitions';
import { formatDate } from '../columns/display';
import { formatLocal } from '../zoned-time';

/**
 * `ExportUtilities.FileName`: the site's title, the export's name and the time in the caller's
 * YmdhmsFormat, joined by `_`, characters a file name cannot hold replaced by `_`, then `.Csv` or `.Json`
 * (the enum's name, as the reference writes it).
 */
export function exportFileName(
  siteTitle: string,
  exportName: string,
  type: 'csv' | 'json',
  time: { readonly instant: number; readonly zone: string; readonly language: Language },
): string {
  const stamp = formatDate(formatLocal(time.instant, time.zone), 'Ymdhms', time.language);
  const base = [siteTitle, exportName, stamp].filter((part) => part !== '').join('_');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name cannot hold
  const valid = base.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
  return `${valid}.${type === 'csv' ? 'Csv' : 'Json'}`;
}
