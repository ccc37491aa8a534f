/**
 * How a stored file is served (CONTRACT 6, issue 23): the type and disposition a download's presigned URL
 * forces on S3's answer. The bucket answers under a presigned URL on a host the browser trusts as much as
 * the uploader's words, so neither the declared type nor the name may make a file active content there:
 * an uploaded `page.html`, or a `photo.png` declared `text/html`, served inline with its own type would run
 * its script with the reader's trust.
 *
 * `show` (images embedded in text) serves inline only a raster image whose first bytes are that image
 * and whose name says so, with the sniffed type (the declared one is the uploader's word); SVG is never
 * one, as it can carry script. Anything else `show` serves as an `application/octet-stream` attachment.
 * `download` is always an attachment, with the declared type unless a browser would run it or render it
 * as a document, which becomes `application/octet-stream`.
 */

export interface Served {
  readonly contentType: string;
  readonly disposition: 'inline' | 'attachment';
}

export const OPAQUE = 'application/octet-stream';

interface Raster {
  readonly type: string;
  readonly extensions: readonly string[];
  readonly matches: (head: Uint8Array) => boolean;
}

const ascii = (head: Uint8Array, at: number, text: string) =>
  [...text].every((char, index) => head[at + index] === char.charCodeAt(0));
const bytes = (head: Uint8Array, at: number, values: readonly number[]) =>
  values.every((value, index) => head[at + index] === value);

/** The raster types a browser draws without running anything, each with its names and its signature. */
const RASTERS: readonly Raster[] = [
  {
    type: 'image/png',
    extensions: ['.png'],
    matches: (head) => bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    type: 'image/jpeg',
    extensions: ['.jpg', '.jpeg', '.jpe', '.jfif'],
    matches: (head) => bytes(head, 0, [0xff, 0xd8, 0xff]),
  },
  {
    type: 'image/gif',
    extensions: ['.gif'],
    matches: (head) => ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a'),
  },
  {
    type: 'image/webp',
    extensions: ['.webp'],
    matches: (head) => ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP'),
  },
  { type: 'image/bmp', extensions: ['.bmp'], matches: (head) => ascii(head, 0, 'BM') },
  {
    type: 'image/avif',
    extensions: ['.avif'],
    matches: (head) => ascii(head, 4, 'ftyp') && (ascii(head, 8, 'avif') || ascii(head, 8, 'avis')),
  },
  {
    type: 'image/x-icon',
    extensions: ['.ico', '.cur'],
    matches: (head) => bytes(head, 0, [0, 0, 1, 0]) || bytes(head, 0, [0, 0, 2, 0]),
  },
];

/** How many first bytes `servedType` needs to recognise every raster type above. */
export const SNIFF_BYTES = 16;

/** Whether a file of this name may be shown inline at all: only then are its first bytes worth reading. */
export function mayShowInline(fileName: string): boolean {
  return rasterNamed(fileName).length > 0;
}

/**
 * What a `show` or `download` of the file answers with. `head` is the file's first bytes (at least
 * SNIFF_BYTES, or the whole file), read for a `show` of a file that `mayShowInline`.
 */
export function servedType(
  file: { readonly fileName: string; readonly contentType: string },
  kind: 'show' | 'download',
  head?: Uint8Array,
): Served {
  if (kind === 'download') return { contentType: passiveType(file.contentType), disposition: 'attachment' };
  const raster = head && rasterNamed(file.fileName).find((candidate) => candidate.matches(head));
  return raster
    ? { contentType: raster.type, disposition: 'inline' }
    : { contentType: OPAQUE, disposition: 'attachment' };
}

function rasterNamed(fileName: string): readonly Raster[] {
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot).toLowerCase() : '';
  return RASTERS.filter((raster) => raster.extensions.includes(extension));
}

/**
 * The declared type when a browser would neither run it nor render it as a document, else OPAQUE. The
 * declared text is the uploader's: anything that is not a plain `type/subtype` (parameters allowed) is
 * OPAQUE too, so nothing odd reaches a header.
 */
function passiveType(declared: string): string {
  if (!/^[\w!#$&^.+-]+\/[\w!#$&^.+-]+\s*(;[\x20-\x7e]*)?$/.test(declared)) return OPAQUE;
  const essence = (declared.split(';')[0] as string).trim().toLowerCase();
  return ACTIVE.has(essence) || essence.endsWith('+xml') || essence.includes('javascript')
    ? OPAQUE
    : declared;
}

/** Types a browser runs, renders as a document with script, or sniffs as such (`+xml` and `*javascript` aside). */
const ACTIVE = new Set([
  'text/html',
  'text/xml',
  'application/xml',
  'text/xsl',
  'text/ecmascript',
  'application/ecmascript',
  'text/jscript',
  'text/vbscript',
  'application/x-shockwave-flash',
  'multipart/x-mixed-replace',
  'text/cache-manifest',
]);
