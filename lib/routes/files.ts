import * as accounts from '../accounts/schemas';
import * as binaries from '../files/schemas';
import { apiResultSchema } from '../schema';
import { itemsRead, itemsWrite, type Route } from './route';

/** Binary upload and downloads (web-api.txt 4.5, 7.2; CONTRACT section 6). */

export const binariesUpload = {
  method: 'POST',
  path: '/api/binaries/upload',
  handler: 'binaries-upload',
  bucket: 'write',
  tables: { binaries: 'write', accounts: 'read' },
  auth: { apiKey: false, bearer: true },
  status: 'processed',
  parseBody: false,
  checkMime: false,
  summary: 'Upload a file, whole or in chunks (Content-Range in the file part), for the site or record ?id=',
  request: binaries.uploadForm,
  requestType: 'multipart',
  query: binaries.uploadQuery,
  response: apiResultSchema,
  memoryMb: 1769,
} as const satisfies Route;

export const binariesUploadStatus = {
  method: 'POST',
  path: '/api/binaries/uploadstatus',
  handler: 'binaries-upload-status',
  tables: { binaries: 'read', accounts: 'read' },
  auth: { bearer: true },
  summary: "Where a chunked upload for ?id= stands: the bytes received, to resume there (Kiroku's addition)",
  request: binaries.uploadStatusRequest,
  response: binaries.uploadStatusResponse,
} as const satisfies Route;

export const binariesGuidUpload = {
  method: 'POST',
  path: '/api/binaries/{guid}/upload',
  handler: 'binaries-guid-upload',
  bucket: 'write',
  tables: { binaries: 'write', ...itemsWrite },
  auth: { apiKey: false, bearer: true },
  status: 'processed',
  parseBody: false,
  checkMime: false,
  summary:
    'New content for an attached file: kept under its GUID with ?overwrite=true, else added beside it (Update)',
  request: binaries.uploadForm,
  requestType: 'multipart',
  query: binaries.overwriteQuery,
  response: apiResultSchema,
  memoryMb: 1769,
} as const satisfies Route;

export const binariesGet = {
  method: 'POST',
  path: '/api/binaries/{guid}/get',
  handler: 'binaries-get',
  bucket: 'read',
  tables: { binaries: 'read', ...itemsRead },
  summary: 'A file of up to 4 MB as base64 in JSON (Read on its site or record, or its uploader)',
  request: accounts.emptyRequest,
  response: binaries.fileResponse,
} as const satisfies Route;

export const binariesDownload = {
  method: 'GET',
  path: '/binaries/{guid}/download',
  handler: 'binaries-download',
  bucket: 'read',
  tables: { binaries: 'read', ...itemsRead },
  auth: { apiKey: false, bearer: true },
  parseBody: false,
  checkMime: false,
  summary:
    'Download a file as an attachment (HTML, XML, SVG and script types as application/octet-stream): a redirect to a presigned URL valid for 60 s (Read, or its uploader)',
  redirect: true,
  response: binaries.redirectResponse,
} as const satisfies Route;

export const binariesShow = {
  method: 'GET',
  path: '/binaries/{guid}/show',
  handler: 'binaries-show',
  bucket: 'read',
  tables: { binaries: 'read', ...itemsRead },
  auth: { apiKey: false, bearer: true },
  parseBody: false,
  checkMime: false,
  summary:
    'Show an image inline (images embedded in text; a file that is not a PNG, JPEG, GIF, WebP, BMP, AVIF or ICO image by its bytes and name comes as an application/octet-stream attachment): a redirect to a presigned URL valid for 60 s',
  redirect: true,
  response: binaries.redirectResponse,
} as const satisfies Route;
