import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';

/**
 * CSV as the reference reads and writes it (../reference/pleasanter-export-import.md §1–2), for record
 * export and import and the users, groups and depts imports. Text is UTF-8 (a BOM is dropped on reading
 * and written when asked) or, for exactly `Shift-JIS`, Windows-31J (code page 932, what .NET's
 * `Encoding.GetEncoding("Shift-JIS")` gives, with its NEC and IBM extensions: ①, 髙).
 */

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'shift-jis';

/** The import's `Encoding` parameter as the reference reads it: only `Shift-JIS` is Shift_JIS. */
export function importEncoding(name: unknown): CsvEncoding {
  return typeof name === 'string' && name.trim().toLowerCase() === 'shift-jis' ? 'shift-jis' : 'utf-8';
}

export interface CsvReadOptions {
  readonly encoding: CsvEncoding;
  /** Default: found from the first line (a tab and no comma outside quotes: Tab; otherwise comma). */
  readonly delimiter?: ',' | '\t';
}

/**
 * The rows of a CSV file as cells, streaming: quoted cells may hold the delimiter, newlines (CRLF or LF)
 * and doubled quotes; rows may differ in length; a BOM is dropped. The file is never whole in memory, so
 * that a file of any size is read in the memory of its longest row.
 */
export async function* csvRows(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: CsvReadOptions,
): AsyncGenerator<string[]> {
  const text = decodedText(source, options.encoding);
  // The head: enough text to hold the first line (or the whole file), to find the delimiter in.
  let head = '';
  for (let next = await text.next(); ; next = await text.next()) {
    if (next.done) break;
    head += next.value;
    if (head.includes('\n') || head.length > 1 << 20) break;
  }
  if (head === '') return;
  const delimiter = options.delimiter ?? delimiterOf(head.replace(/^\uFEFF/, ''));
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  });
  const input = Readable.from(
    (async function* () {
      yield head;
      yield* { [Symbol.asyncIterator]: () => text };
    })(),
  );
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  for await (const row of parser) yield row as string[];
}

async function* decodedText(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  encoding: CsvEncoding,
): AsyncGenerator<string> {
  if (encoding === 'shift-jis') {
    const decoder = iconv.getDecoder('cp932');
    for await (const chunk of source) {
      const text = decoder.write(Buffer.from(chunk));
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
    return;
  }
  // fatal: false: an invalid byte becomes U+FFFD, as .NET's UTF-8 reader does; the BOM is csv-parse's.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const chunk of source) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** Tab when the text's first line has a tab and no comma outside quotes; comma otherwise. */
function delimiterOf(text: string): ',' | '\t' {
  let quoted = false;
  let tab = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') return ',';
    else if (!quoted && char === '\t') tab = true;
    else if (!quoted && char === '\n') break;
  }
  return tab ? '\t' : ',';
}

export interface CsvWriteOptions {
  readonly delimiter: ',' | '\t';
  /** Quote every cell, doubling quotes inside (the reference's EncloseDoubleQuotes, default true). */
  readonly quote: boolean;
}

/**
 * One row of the reference's CSV, ending with `\n` as every row does there. Unquoted cells are written as
 * they are (the reference's `EncloseDoubleQuotes: false`: no escaping at all).
 */
export function csvLine(cells: readonly string[], options: CsvWriteOptions): string {
  const written = options.quote ? cells.map((cell) => `"${cell.replaceAll('"', '""')}"`) : cells;
  return `${written.join(options.delimiter)}\n`;
}

/** The header row: labels quoted but, as the reference writes them, quotes inside are not doubled. */
export function csvHeader(labels: readonly string[], options: CsvWriteOptions): string {
  const written = options.quote ? labels.map((label) => `"${label}"`) : labels;
  return `${written.join(options.delimiter)}\n`;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** CSV text as a file's bytes: UTF-8 with or without a BOM, or Shift-JIS (code page 932). */
export function encodeCsv(text: string, encoding: CsvEncoding): Buffer {
  if (encoding === 'shift-jis') return iconv.encode(text, 'cp932');
  const bytes = Buffer.from(text, 'utf8');
  return encoding === 'utf-8-bom' ? Buffer.concat([BOM, bytes]) : bytes;
}

/** An encoder for a file written in pieces (an export in pages): the BOM, if any, comes with the first. */
export function csvEncoder(encoding: CsvEncoding): (text: string) => Buffer {
  let first = true;
  return (text) => {
    const bom = first && encoding === 'utf-8-bom';
    first = false;
    const bytes = encodeCsv(text, encoding === 'utf-8-bom' ? 'utf-8' : encoding);
    return bom ? Buffer.concat([BOM, bytes]) : bytes;
  };
}
