import { describe, expect, it } from 'vitest';
import { DELETED_VER, type SearchDocument } from '../../../lib/search/index-store';
import { needsWrite, tombstone } from '../../../lib/search/index-writer';

const doc = (ver: number, restored?: boolean): SearchDocument => ({
  id: 7,
  siteId: 1,
  kind: 'record',
  title: 't',
  text: 'text',
  ver,
  updatedAt: 1,
  ...(restored !== undefined && { restored }),
});

describe('lib/search/index-writer', () => {
  describe('needsWrite over a tombstone', () => {
    const stored = tombstone(7, 1, 1);
    it.each([
      ['a late write of an older version', doc(3), false],
      ['a record restored from the recycle bin', doc(3, true), true],
    ] as const)('%s: %s', (_, next, written) => {
      expect(stored.ver).toBe(DELETED_VER);
      expect(needsWrite(stored, next)).toBe(written);
    });

    it('a restored flag does not let an older version replace a newer one', () => {
      expect(needsWrite(doc(5), doc(3, true))).toBe(false);
    });
  });
});
