import { describe, expect, it } from 'vitest';
import { findClosestSiteId } from '../../../lib/sites/closest-site';
import {
  CACHE_CAPACITY,
  cachedSiteId,
  createLookupCache,
  rememberSiteId,
} from '../../../lib/sites/lookup-cache';
import { buildNameIndex, type NameIndex } from '../../../lib/sites/name-index';
import { applySiteChanges } from '../../../lib/sites/name-index-updates';
import { ruleTree } from '../../fixtures/site-trees';

const keys = (index: NameIndex) => [...index.cache.entries.keys()];

describe('sites/lookup-cache', () => {
  describe('rememberSiteId', () => {
    it(`keeps ${CACHE_CAPACITY} entries and drops the oldest inserted, even right after a hit`, () => {
      const cache = createLookupCache(1);
      for (let origin = 0; origin < CACHE_CAPACITY; origin++) rememberSiteId(cache, 1, 'n', origin, origin);
      expect(cache.entries.size).toBe(CACHE_CAPACITY);
      expect(cachedSiteId(cache, 1, 'n', 0)).toBe(0);
      rememberSiteId(cache, 1, 'n', CACHE_CAPACITY, 7);
      expect(cache.entries.size).toBe(CACHE_CAPACITY);
      expect(cachedSiteId(cache, 1, 'n', 0)).toBeUndefined();
      expect(cachedSiteId(cache, 1, 'n', 1)).toBe(1);
      expect(cachedSiteId(cache, 1, 'n', CACHE_CAPACITY)).toBe(7);
    });

    it('keys on the name and the origin together, whatever the name holds', () => {
      const cache = createLookupCache(1);
      rememberSiteId(cache, 1, '2:x', 1, 10);
      rememberSiteId(cache, 1, 'x', 12, 20);
      expect(cachedSiteId(cache, 1, '2:x', 1)).toBe(10);
      expect(cachedSiteId(cache, 1, 'x', 12)).toBe(20);
      expect(cachedSiteId(cache, 1, 'x', 1)).toBeUndefined();
    });
  });

  describe('cachedSiteId', () => {
    it('never answers for another version, and empties itself', () => {
      const cache = createLookupCache(1);
      rememberSiteId(cache, 1, 'n', 5, 6);
      expect(cachedSiteId(cache, 2, 'n', 5)).toBeUndefined();
      expect(cache.entries.size).toBe(0);
      expect(cache.version).toBe(2);
    });
  });

  describe('findClosestSiteId with the cache', () => {
    it('caches searched answers, -1 included, but not unique names nor a missing origin', () => {
      const index = buildNameIndex(ruleTree, 1);
      expect(findClosestSiteId(index, 130, 'Tasks')).toBe(121);
      expect(findClosestSiteId(index, 401, 'Ledger')).toBe(-1);
      expect(findClosestSiteId(index, 130, 'Solo')).toBe(310);
      expect(findClosestSiteId(index, 99_999, 'Tasks')).toBe(-1);
      expect(findClosestSiteId(index, 130, 'Nobody')).toBe(-1);
      expect(keys(index)).toEqual(['130:Tasks', '401:Ledger']);
      expect(index.cache.entries.get('401:Ledger')).toBe(-1);
    });

    it('answers from the cache within one version', () => {
      const index = buildNameIndex(ruleTree, 1);
      expect(findClosestSiteId(index, 130, 'Tasks')).toBe(121);
      index.cache.entries.set('130:Tasks', 133);
      expect(findClosestSiteId(index, 130, 'Tasks')).toBe(133);
    });

    it('never answers from the old version’s cache after a change', () => {
      const index = buildNameIndex(ruleTree, 1);
      expect(findClosestSiteId(index, 130, 'Tasks')).toBe(121);
      applySiteChanges(
        index,
        [{ kind: 'put', site: { siteId: 121, parentId: 120, referenceType: 'Issues', siteName: 'Done' } }],
        2,
      );
      expect(keys(index)).toEqual([]);
      expect(findClosestSiteId(index, 130, 'Tasks')).toBe(133);
    });

    it('empties a cache left from another version before using it', () => {
      const index = buildNameIndex(ruleTree, 1);
      index.cache.entries.set('130:Tasks', 133);
      index.version = 2;
      expect(findClosestSiteId(index, 130, 'Tasks')).toBe(121);
    });
  });
});
