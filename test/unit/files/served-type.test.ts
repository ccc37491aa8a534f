import { describe, expect, it } from 'vitest';
import { mayShowInline, OPAQUE, servedType } from '../../../lib/files/served-type';

const hex = (text: string) => Buffer.from(text.replace(/\s/g, ''), 'hex');
const SIGNATURES = {
  png: hex('89504e47 0d0a1a0a 0000000d 49484452'),
  jpeg: hex('ffd8ffe0 00104a46 49460001'),
  gif: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
  webp: Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'),
  bmp: Buffer.from('BM\x3a\x00\x00\x00', 'latin1'),
  avif: Buffer.from('\x00\x00\x00\x20ftypavif\x00\x00\x00\x00', 'latin1'),
  ico: hex('00000100 01001010'),
  html: Buffer.from('<!DOCTYPE html><script>'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'),
};

describe('lib/files/served-type', () => {
  describe('servedType for show', () => {
    it.each([
      ['a.png', SIGNATURES.png, 'image/png'],
      ['A.JPG', SIGNATURES.jpeg, 'image/jpeg'],
      ['a.jpeg', SIGNATURES.jpeg, 'image/jpeg'],
      ['a.gif', SIGNATURES.gif, 'image/gif'],
      ['a.webp', SIGNATURES.webp, 'image/webp'],
      ['a.bmp', SIGNATURES.bmp, 'image/bmp'],
      ['a.avif', SIGNATURES.avif, 'image/avif'],
      ['a.ico', SIGNATURES.ico, 'image/x-icon'],
    ])('shows %s inline as its sniffed type, whatever was declared', (fileName, head, type) => {
      expect(servedType({ fileName, contentType: 'text/html' }, 'show', head)).toEqual({
        contentType: type,
        disposition: 'inline',
      });
    });

    it.each([
      ['HTML bytes named .png', 'a.png', SIGNATURES.html],
      ['a PNG named .html', 'a.html', SIGNATURES.png],
      ['a PNG named .svg', 'a.svg', SIGNATURES.png],
      ['an SVG', 'a.svg', SIGNATURES.svg],
      ['a JPEG named .png (names and bytes must agree)', 'a.png', SIGNATURES.jpeg],
      ['a file without a name extension', 'png', SIGNATURES.png],
      ['an image whose bytes were not read', 'a.png', undefined],
    ])('serves %s as an opaque attachment', (_case, fileName, head) => {
      expect(servedType({ fileName, contentType: 'image/png' }, 'show', head)).toEqual({
        contentType: OPAQUE,
        disposition: 'attachment',
      });
    });
  });

  describe('servedType for download', () => {
    it.each([
      ['text/html', OPAQUE],
      ['TEXT/HTML; charset=utf-8', OPAQUE],
      ['application/xhtml+xml', OPAQUE],
      ['image/svg+xml', OPAQUE],
      ['text/xml', OPAQUE],
      ['application/javascript', OPAQUE],
      ['text/javascript', OPAQUE],
      ['multipart/x-mixed-replace', OPAQUE],
      ['not a type', OPAQUE],
      ['text/plain\r\nSet-Cookie: x', OPAQUE],
      ['', OPAQUE],
      ['text/plain', 'text/plain'],
      ['application/pdf', 'application/pdf'],
      ['image/png', 'image/png'],
      ['text/csv; charset=utf-8', 'text/csv; charset=utf-8'],
    ])('serves a file declared %j as an attachment of type %j', (contentType, type) => {
      expect(servedType({ fileName: 'a.png', contentType }, 'download', SIGNATURES.png)).toEqual({
        contentType: type,
        disposition: 'attachment',
      });
    });
  });

  describe('mayShowInline', () => {
    it.each([
      ['a.png', true],
      ['photo.JPEG', true],
      ['a.svg', false],
      ['a.html', false],
      ['a.png.html', false],
      ['.png', false],
    ])('%s → %s', (fileName, expected) => {
      expect(mayShowInline(fileName)).toBe(expected);
    });
  });
});
