import type { Principal } from '../accounts/principal';
import { csvRows, importEncoding } from '../csv/csv';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import { siteInTenant } from '../sites/permissions';
import { ImportTooLargeError, InvalidImportRowsError, NoImportRowsError } from './errors';
import { writePage } from './page-writer';
import type { PlannedPage } from './plan';
import { type ImportParameters, planImport, requireImporter } from './session';

/**
 * `POST /api/items/{siteId}/import` (../reference/pleasanter-export-import.md §2, CONTRACT 12): the CSV of
 * one request, every row checked before the first write; an invalid row is a 400 naming its row and
 * column and nothing is written. Files of more rows than one request writes in the API's 30 seconds go
 * through the background task (lib/imports/task.ts), which the 400 names.
 */

/** Rows one request imports: ~5 s of writes on DynamoDB, well inside the API's 30 s. */
export const SYNC_MAX_ROWS = 10_000;

export async function importFile(
  principal: Principal,
  siteId: number,
  params: ImportParameters,
  file: Uint8Array | undefined,
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  await requireImporter(principal, site, params);
  if (!file || file.length === 0) throw new NoImportRowsError();
  const limits = await useApiCall(site);
  const pages: PlannedPage[] = [];
  const result = await planImport(
    principal,
    site,
    params,
    csvRows([file], { encoding: importEncoding(params.Encoding) }),
    async (page) => {
      pages.push(page);
    },
    (rows) => {
      if (rows > SYNC_MAX_ROWS) throw new ImportTooLargeError(siteId, SYNC_MAX_ROWS);
    },
  );
  if (result.errors.length > 0) throw new InvalidImportRowsError(result.errors);
  await writePage(
    site,
    pages.flatMap((page) => page.writes),
  );
  return { id: siteId, message: messages.bulkUpserted(site.title, result.added, result.updated), ...limits };
}
