import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { csvEncoder, csvHeader, csvLine, csvRows, encodeCsv, importEncoding } from '../../lib/csv/csv';

async function rowsOf(bytes: Uint8Array, encoding: Parameters<typeof csvRows>[1]['encoding'], chunk = 3) {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunk) pieces.push(bytes.subarray(at, at + chunk));
  const rows: string[][] = [];
  for await (const row of csvRows(pieces, { encoding })) rows.push(row);
  return rows;
}

describe('reading CSV', () => {
  it.each([
    [
      'plain',
      'a,b\n1,2\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'CRLF',
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'no final newline',
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'quoted newline',
      '"a","b"\n"line 1\nline 2","x"\n',
      [
        ['a', 'b'],
        ['line 1\nline 2', 'x'],
      ],
    ],
    ['quoted CRLF', '"a"\r\n"x\r\ny"\r\n', [['a'], ['x\r\ny']]],
    ['doubled quotes', '"a"\n"say ""hi"""\n', [['a'], ['say "hi"']]],
    ['quoted delimiter', '"a,b",c\n', [['a,b', 'c']]],
    ['ragged rows', 'a,b,c\n1\n', [['a', 'b', 'c'], ['1']]],
    [
      'tab-separated',
      'a\tb\n1\t2,3\n',
      [
        ['a', 'b'],
        ['1', '2,3'],
      ],
    ],
    [
      'a tab inside a quoted header of a comma file',
      '"a\tb",c\n1,2\n',
      [
        ['a\tb', 'c'],
        ['1', '2'],
      ],
    ],
    ['empty lines skipped', 'a\n\n1\n', [['a'], ['1']]],
    [
      'Japanese',
      'タイトル,状況\n髙橋①,完了\n',
      [
        ['タイトル', '状況'],
        ['髙橋①', '完了'],
      ],
    ],
  ])('%s', async (_, text, rows) => {
    expect(await rowsOf(Buffer.from(text, 'utf8'), 'utf-8')).toEqual(rows);
    expect(
      await rowsOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'utf-8'),
    ).toEqual(rows);
    expect(await rowsOf(iconv.encode(text, 'cp932'), 'shift-jis')).toEqual(rows);
  });

  it('splits multi-byte characters across chunks in both encodings', async () => {
    const text = '名前\n'.repeat(50);
    for (const size of [1, 2, 5, 7]) {
      expect(await rowsOf(Buffer.from(text), 'utf-8', size)).toHaveLength(50);
      expect((await rowsOf(iconv.encode(text, 'cp932'), 'shift-jis', size))[49]).toEqual(['名前']);
    }
  });

  it('reads nothing from an empty file', async () => {
    expect(await rowsOf(Buffer.alloc(0), 'utf-8')).toEqual([]);
  });

  it.each([
    ['Shift-JIS', 'shift-jis'],
    [' shift-jis ', 'shift-jis'],
    ['Shift_JIS', 'utf-8'],
    ['UTF-8', 'utf-8'],
    [undefined, 'utf-8'],
    [932, 'utf-8'],
  ])('Encoding %j is read as %s', (name, encoding) => {
    expect(importEncoding(name)).toBe(encoding);
  });
});

describe('writing CSV', () => {
  it.each([
    [['a', 'say "hi"', 'x\ny'], { delimiter: ',', quote: true }, '"a","say ""hi""","x\ny"\n'],
    [['a', 'b'], { delimiter: '\t', quote: true }, '"a"\t"b"\n'],
    [['a"', 'b,c'], { delimiter: ',', quote: false }, 'a",b,c\n'],
  ] as const)('%j %j', (cells, options, line) => {
    expect(csvLine(cells, options)).toBe(line);
  });

  it('writes header labels without doubling quotes, as the reference', () => {
    expect(csvHeader(['ID', 'Say "x"'], { delimiter: ',', quote: true })).toBe('"ID","Say "x""\n');
  });

  it('encodes UTF-8 with and without a BOM and Shift-JIS', () => {
    expect([...encodeCsv('é', 'utf-8-bom')]).toEqual([0xef, 0xbb, 0xbf, 0xc3, 0xa9]);
    expect([...encodeCsv('é', 'utf-8')]).toEqual([0xc3, 0xa9]);
    expect(iconv.decode(encodeCsv('髙橋①', 'shift-jis'), 'cp932')).toBe('髙橋①');
    const encode = csvEncoder('utf-8-bom');
    expect(encode('a').length).toBe(4);
    expect(encode('a').length).toBe(1);
  });
});
