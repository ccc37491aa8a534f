import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findClosestSiteId } from '../../../lib/sites/closest-site';
import { buildNameIndex, siteIdsNamedOrGrouped, sitesOf } from '../../../lib/sites/name-index';
import { deserializeNameIndex, serializeNameIndex } from '../../../lib/sites/name-index-codec';
import { applySiteChanges } from '../../../lib/sites/name-index-updates';
import { askedNames, originsOf, randomTree, ruleTree } from '../../fixtures/site-trees';

describe('sites/name-index-codec', () => {
  describe('serializeNameIndex / deserializeNameIndex', () => {
    it('round-trips any index: sites, version, names and answers', () => {
      fc.assert(
        fc.property(randomTree, fc.integer({ min: 1, max: 2 ** 40 }), (sites, version) => {
          const index = buildNameIndex(sites, version);
          const loaded = deserializeNameIndex(serializeNameIndex(index));
          expect(loaded.version).toBe(version);
          expect(sitesOf(loaded)).toEqual(sitesOf(index));
          for (const name of askedNames) {
            expect(siteIdsNamedOrGrouped(loaded, name)).toEqual(siteIdsNamedOrGrouped(index, name));
            for (const origin of originsOf(sites)) {
              expect(findClosestSiteId(loaded, origin, name)).toBe(findClosestSiteId(index, origin, name));
            }
          }
        }),
        { numRuns: 200 },
      );
    });

    it('stores an updated index (spare capacity, moved slots) and names in any script', () => {
      const index = buildNameIndex(ruleTree, 1);
      applySiteChanges(
        index,
        [
          { kind: 'remove', siteId: 100 },
          {
            kind: 'put',
            site: { siteId: 600, parentId: 120, referenceType: 'Results', siteName: '売上 "Q1"\n' },
          },
        ],
        2,
      );
      const loaded = deserializeNameIndex(serializeNameIndex(index));
      expect(sitesOf(loaded)).toEqual(sitesOf(index));
      expect(findClosestSiteId(loaded, 130, '売上 "Q1"\n')).toBe(600);
    });

    it('reads bytes at any offset of a larger buffer (an S3 body)', () => {
      const stored = serializeNameIndex(buildNameIndex(ruleTree, 3));
      const pool = new Uint8Array(stored.length + 3);
      pool.set(stored, 3);
      expect(sitesOf(deserializeNameIndex(pool.subarray(3)))).toEqual(sitesOf(buildNameIndex(ruleTree, 3)));
    });

    it.each([
      ['not an index', new Uint8Array(40)],
      ['truncated', serializeNameIndex(buildNameIndex(ruleTree, 1)).subarray(0, 100)],
    ])('refuses bytes that are %s', (_what, bytes) => {
      expect(() => deserializeNameIndex(bytes)).toThrow(/name index/);
    });
  });
});
