import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { ApiError } from '../errors';
import type { Reading } from '../results';
import { useApiCall } from '../sites/api-limit';
import { exportFileName } from './file-name';
import { type ExportRequestInput, prepareExport } from './prepare';
import { type PageCursor, recordPage, sortedIds } from './record-pages';
import { exportWriter } from './writer';

/**
 * `POST /api/items/{siteId}/export` (reference note §1): the whole export in one answer,
 * `{Name, Content}`, Content the file's text without a BOM. One answer carries at most Lambda's 6 MB, so
 * the content is counted as it is built, as JSON text, and an export that would not fit is refused before
 * it fills memory: the caller is sent to the background export, which writes a file of any size.
 */

/** Content's bytes once written as a JSON string: what is left of 6 MB after the envelope and the Name. */
export const MAX_ANSWER_CONTENT_BYTES = 6_000_000;
const PAGE = 500;

export class ExportTooLargeError extends ApiError {
  constructor(siteId: number) {
    super(
      400,
      `The export is larger than one answer can carry (6 MB). Use POST /api/BackgroundTasks/${siteId}/Export, which writes it as a file to download.`,
      `export of site ${siteId} over ${MAX_ANSWER_CONTENT_BYTES} bytes`,
    );
  }
}

export async function exportItems(
  principal: Principal,
  siteId: number,
  input: ExportRequestInput,
  maxBytes = MAX_ANSWER_CONTENT_BYTES,
): Promise<Reading<{ Name: string; Content: string }>> {
  const prepared = await prepareExport(principal, siteId, input);
  const { site, definition, view, language, zone } = prepared;
  const writer = exportWriter(principal, site, definition, { language, zone });
  const order = view.defaultOrder ? undefined : await sortedIds(site, view, prepared.sortedNames);
  const pieces: string[] = [];
  let bytes = 0;
  const add = (piece: string) => {
    // As a JSON string: escapes counted, quotes not.
    bytes += Buffer.byteLength(JSON.stringify(piece)) - 2;
    if (bytes > maxBytes) throw new ExportTooLargeError(siteId);
    pieces.push(piece);
  };
  add(writer.head());
  let written = 0;
  for (let cursor: PageCursor | undefined = {}; cursor; ) {
    const page = await recordPage(site, view, cursor, PAGE, order);
    add(await writer.rows(page.records, written));
    written += page.records.length;
    cursor = page.next;
  }
  add(writer.tail(written));
  const limits = await useApiCall(site);
  const Name = exportFileName(site.title, definition.name, definition.type, {
    instant: now(),
    zone,
    language,
  });
  return { response: { Name, Content: pieces.join('') }, limits };
}
