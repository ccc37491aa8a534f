import { describe, expect, it } from 'vitest';
import type { Language } from '../../../lib/columns/definitions';
import { exportEncoding } from '../../../lib/exports/background';
import { exportFileName } from '../../../lib/exports/file-name';
import { contentDisposition } from '../../../lib/http/file-stream';

const instant = Date.parse('2026-01-02T01:11:12Z');

describe('exports/file-name', () => {
  describe('exportFileName', () => {
    it.each<[string, string, 'csv' | 'json', Language, string]>([
      ['Orders', 'Open', 'csv', 'ja', 'Orders_Open_2026_01_02 10_11_12.Csv'],
      ['Orders', 'Open', 'json', 'en', 'Orders_Open_01_02_2026 10_11_12.Json'],
      ['Orders', '', 'csv', 'ja', 'Orders_2026_01_02 10_11_12.Csv'],
      ['a/b:c*?"<>|', 'x\\y', 'csv', 'ja', 'a_b_c_______x_y_2026_01_02 10_11_12.Csv'],
      ['受注', '一覧', 'csv', 'ja', '受注_一覧_2026_01_02 10_11_12.Csv'],
    ])('names %j %j (%s, %s) %j', (title, name, type, language, expected) => {
      expect(exportFileName(title, name, type, { instant, zone: 'Asia/Tokyo', language })).toBe(expected);
    });
  });
});

describe('exports/background', () => {
  describe('exportEncoding', () => {
    it.each<[string | null | undefined, string]>([
      [undefined, 'utf-8-bom'],
      [null, 'utf-8-bom'],
      ['', 'utf-8-bom'],
      ['UTF-8', 'utf-8-bom'],
      ['utf-8', 'utf-8-bom'],
      ['Shift-JIS', 'shift-jis'],
      [' shift-jis ', 'shift-jis'],
    ])('reads %j as %s', (value, encoding) => {
      expect(exportEncoding(value)).toBe(encoding);
    });

    it.each(['latin-1', 'sjis', 'utf-16'])('refuses %j with a 400 naming Encoding', (value) => {
      expect(() => exportEncoding(value)).toThrow(
        expect.objectContaining({ statusCode: 400, what: expect.stringContaining('Encoding') }),
      );
    });
  });
});

describe('exports/file-stream', () => {
  describe('contentDisposition', () => {
    it.each([
      ['report.csv', `attachment; filename="report.csv"; filename*=UTF-8''report.csv`],
      [
        '受注 (1).Csv',
        `attachment; filename="__ (1).Csv"; filename*=UTF-8''%E5%8F%97%E6%B3%A8%20%281%29.Csv`,
      ],
      ['a"b\\c.txt', `attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`],
    ])('writes %j as %s', (name, header) => {
      expect(contentDisposition(name)).toBe(header);
    });
  });
});
