import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { settings } from '../config/settings';
import { type CsvEncoding, csvEncoder } from '../csv/csv';
import { ApiError, ForbiddenError, UnsupportedInputError } from '../errors';
import * as objects from '../files/object-store';
import * as binaries from '../files/repository';
import { newGuid } from '../files/upload';
import { recordCount } from '../items/record-repository';
import type { Outcome } from '../results';
import type { Task, TaskKind } from '../tasks/model';
import { startOwnTask, taskPrincipal } from '../tasks/tasks';
import { exportFileName } from './file-name';
import { type ExportRequestInput, type PreparedExport, prepareExport } from './prepare';
import { type PageCursor, recordPage, sortedIds } from './record-pages';
import type { BackgroundExportInput } from './schemas';
import { exportWriter } from './writer';

/**
 * `POST /api/BackgroundTasks/{siteId}/Export` and its task kind `Export` (CONTRACT 12): the export of any
 * size written as one file of the binary bucket through a multipart upload, page by page, acting as the
 * user who asked (their permissions are checked again at every page, their language and zone format
 * it). A page goes on until it holds a whole part (5 MiB, S3's least but the last) or reaches the end,
 * and uploads it under its part number: a page done again uploads the same part again. The cursor holds
 * the upload and the parts' ETags. The finished file is registered as a file of the site, so that those
 * who can read the site download it through /binaries/{guid}/download (and /get, /getstream); its Guid
 * and FileName are the task's outcome. At no time is more than a part of it in memory.
 */

export const EXPORT_STARTED = 'Export started.';
/**
 * Records per read: the first read is small; later ones are sized by the rows written so far to reach
 * the part's size, so that a part of long rows never holds much more than 5 MiB.
 */
const FIRST_READ = 20;
const MAX_READ = 1000;

interface Params extends ExportRequestInput {
  readonly Encoding: CsvEncoding;
}

interface Cursor {
  readonly guid: string;
  readonly objectKey: string;
  readonly uploadId: string;
  readonly parts: readonly objects.Part[];
  /** Rows and bytes written so far. */
  readonly rows: number;
  readonly bytes: number;
  /** Where the next part's records start. */
  readonly page: PageCursor;
  /** A sorted View's ids, in order, as an object of the bucket. */
  readonly orderKey?: string;
}

/** `Shift-JIS` (any case) or UTF-8; the default, as the reference's download, UTF-8 with a BOM. */
export function exportEncoding(value: string | null | undefined): CsvEncoding {
  const name = (value ?? '').trim().toLowerCase();
  if (name === 'shift-jis') return 'shift-jis';
  if (name === '' || name === 'utf-8') return 'utf-8-bom';
  throw new UnsupportedInputError(`Encoding: ${value} is not Shift-JIS or UTF-8.`);
}

export async function requestExport(
  principal: Principal,
  siteId: number,
  input: BackgroundExportInput,
): Promise<{ outcome: Outcome; taskId: string }> {
  if (!settings().BackgroundTask.Enabled) throw new ForbiddenError('BackgroundTask.Enabled is false');
  const encoding = exportEncoding(input.Encoding);
  // Everything the export cannot do is refused now, not found by the worker later.
  await prepareExport(principal, siteId, input);
  const params: Params = {
    View: input.View ?? null,
    Export: input.Export ?? null,
    ...(input.ExportId !== undefined && { ExportId: input.ExportId }),
    Encoding: encoding,
  };
  const task = await startOwnTask(principal, 'Export', siteId, { ...params });
  return { outcome: { id: siteId, message: EXPORT_STARTED }, taskId: task.taskId };
}

/** The inputs the request recorded (requestExport). */
const paramsOf = (task: Task) => (task.params ?? {}) as unknown as Params;

/** The task's export prepared again for its user, or why it cannot go on (their rights were withdrawn). */
async function prepared(task: Task): Promise<{ principal: Principal; export: PreparedExport } | string> {
  const principal = await taskPrincipal(task);
  if (!principal) return 'The user who started the export can no longer sign in.';
  try {
    return { principal, export: await prepareExport(principal, task.scopeId, paramsOf(task)) };
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
}

function fileNameOf(task: Task, ready: PreparedExport): string {
  const { site, definition, language, zone } = ready;
  return exportFileName(site.title, definition.name, definition.type, {
    instant: task.createdAt,
    zone,
    language,
  });
}

export const exportTask: TaskKind = {
  perRequest: true,

  async start(task) {
    const ready = await prepared(task);
    if (typeof ready === 'string') return { total: 0, cursor: undefined, failed: ready };
    const { site, view, sortedNames, definition } = ready.export;
    const guid = newGuid();
    const objectKey = objects.fileKey(task.tenantId, guid, task.taskId.toLowerCase());
    let orderKey: string | undefined;
    let total: number;
    if (view.defaultOrder) {
      total = await recordCount(site);
    } else {
      const ids = await sortedIds(site, view, sortedNames);
      orderKey = `uploads/${task.tenantId}/${guid}/export-order`;
      await objects.putObject(orderKey, Buffer.from(JSON.stringify(ids)), 'application/json');
      total = ids.length;
    }
    const uploadId = await objects.startMultipart(objectKey, contentTypeOf(definition.type));
    const cursor: Cursor = { guid, objectKey, uploadId, parts: [], rows: 0, bytes: 0, page: {}, orderKey };
    return { total, cursor };
  },

  async page(task, value) {
    const cursor = value as Cursor;
    const ready = await prepared(task);
    if (typeof ready === 'string') return { done: 0, failed: ready };
    const { principal, export: exported } = ready;
    const { site, view, definition, language, zone } = exported;
    const params = paramsOf(task);
    const order = cursor.orderKey
      ? (JSON.parse((await objects.getObject(cursor.orderKey)).toString('utf8')) as number[])
      : undefined;
    const writer = exportWriter(principal, site, definition, { language, zone });
    // The BOM, if any, opens the first part only.
    const first = cursor.parts.length === 0;
    const encode = csvEncoder(
      first ? params.Encoding : params.Encoding === 'shift-jis' ? 'shift-jis' : 'utf-8',
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let rows = cursor.rows;
    const add = (text: string) => {
      if (text === '' && !(first && size === 0 && params.Encoding === 'utf-8-bom')) return;
      const bytes = encode(text);
      chunks.push(bytes);
      size += bytes.length;
    };
    if (first) add(writer.head());
    let next: PageCursor | undefined = cursor.page;
    let read = FIRST_READ;
    while (next && size < objects.MIN_PART_BYTES) {
      const page = await recordPage(site, view, next, read, order);
      add(await writer.rows(page.records, rows));
      rows += page.records.length;
      next = page.next;
      const perRow = size / Math.max(1, rows - cursor.rows);
      read = Math.min(MAX_READ, Math.max(FIRST_READ, Math.ceil((objects.MIN_PART_BYTES - size) / perRow)));
    }
    if (!next) add(writer.tail(rows));
    const part = await objects.uploadPart(
      cursor.objectKey,
      cursor.uploadId,
      cursor.parts.length + 1,
      Buffer.concat(chunks),
    );
    const parts = [...cursor.parts, part];
    const bytes = cursor.bytes + size;
    const done = rows - cursor.rows;
    if (next) return { done, cursor: { ...cursor, parts, rows, bytes, page: next } satisfies Cursor };
    const fileName = fileNameOf(task, exported);
    await objects.completeMultipart(cursor.objectKey, cursor.uploadId, parts, bytes);
    await register(task, cursor, fileName, definition.type, bytes);
    if (cursor.orderKey) await objects.deleteObjects([cursor.orderKey]);
    return { done, outcome: { Guid: cursor.guid, FileName: fileName } };
  },
};

function contentTypeOf(type: 'csv' | 'json'): string {
  return type === 'csv' ? 'text/csv' : 'application/json';
}

/** The file as one of the site's: attached to it, so only those who read the site see it. */
async function register(task: Task, cursor: Cursor, fileName: string, type: 'csv' | 'json', size: number) {
  const time = now();
  const userId = task.userId ?? 0;
  await binaries.insertBinary({
    binaryId: await binaries.nextBinaryId(),
    tenantId: task.tenantId,
    guid: cursor.guid,
    referenceId: task.scopeId,
    attached: true,
    fileName,
    extension: type === 'csv' ? '.Csv' : '.Json',
    contentType: contentTypeOf(type),
    size,
    objectKey: cursor.objectKey,
    creator: userId,
    updator: userId,
    createdAt: time,
    updatedAt: time,
  });
}
