import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findClosestSiteId } from '../../../lib/sites/closest-site';
import {
  buildNameIndex,
  type NameIndex,
  type SiteEntry,
  siteIdsNamedOrGrouped,
  sitesOf,
} from '../../../lib/sites/name-index';
import { applySiteChanges, type SiteChange } from '../../../lib/sites/name-index-updates';
import { ReferenceSiteTree } from '../../fixtures/reference-site-tree';
import {
  askedNames,
  isWithin,
  MAX_ID,
  originsOf,
  randomTree,
  ruleTree,
  siteNames,
  siteTypes,
} from '../../fixtures/site-trees';

const pick = <T>(values: readonly T[], seed: number): T => values[seed % values.length] as T;

/** Turns a random seed into a change that makes sense for the current sites (and never a cycle). */
function changeFor(sites: Map<number, SiteEntry>, seed: number[]): SiteChange {
  const [op = 0, a = 0, b = 0, c = 0] = seed;
  const existing = [...sites.values()];
  const site = existing.length > 0 ? pick(existing, a) : undefined;
  const parents = [0, MAX_ID + 1, ...existing.map((other) => other.siteId)];
  switch (site === undefined ? 0 : op % 5) {
    case 0: {
      // Created; often with an id that orphans already point at (records arriving out of order).
      const awaited = existing.map((other) => other.parentId).filter((id) => id !== 0 && !sites.has(id));
      const siteId = awaited.length > 0 && c % 2 === 0 ? pick(awaited, a) : 1 + (a % (MAX_ID + 2));
      if (sites.has(siteId)) return { kind: 'remove', siteId };
      const wanted = pick(parents, b);
      const parentId = isWithin(existing, wanted, siteId) ? 0 : wanted;
      return {
        kind: 'put',
        site: { siteId, parentId, referenceType: pick(siteTypes, c), siteName: pick(siteNames, b + c) },
      };
    }
    case 1:
      return {
        kind: 'put',
        site: { ...(site as SiteEntry), siteName: pick(siteNames, b), siteGroupName: pick(siteNames, c) },
      };
    case 2: {
      const parentId = pick(parents, b);
      const safe = parentId === 0 || !isWithin(existing, parentId, (site as SiteEntry).siteId);
      return { kind: 'put', site: { ...(site as SiteEntry), parentId: safe ? parentId : 0 } };
    }
    case 3:
      return { kind: 'put', site: { ...(site as SiteEntry), referenceType: pick(siteTypes, b) } };
    default:
      return { kind: 'remove', siteId: (site as SiteEntry).siteId };
  }
}

function expectConsistent(index: NameIndex): void {
  for (let slot = 0; slot < index.count; slot++) {
    expect(index.slotOf.get(index.ids[slot] as number)).toBe(slot);
    expect(index.parentSlots[slot]).toBe(index.slotOf.get(index.parentIds[slot] as number) ?? -1);
  }
  expect(index.slotOf.size).toBe(index.count);
}

const changeSeeds = fc.array(fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), {
  minLength: 1,
  maxLength: 60,
  size: 'medium',
});

describe('sites/name-index-updates', () => {
  describe('applySiteChanges', () => {
    it('gives the same sites and answers as a full rebuild, after any run of changes', () => {
      fc.assert(
        fc.property(randomTree, changeSeeds, fc.integer({ min: 1, max: 5 }), (start, seeds, batch) => {
          const model = new Map(start.map((site) => [site.siteId, site]));
          const index = buildNameIndex(start, 1);
          let pending: SiteChange[] = [];
          seeds.forEach((seed, at) => {
            const change = changeFor(model, seed);
            if (change.kind === 'put') model.set(change.site.siteId, change.site);
            else model.delete(change.siteId);
            pending.push(change);
            if (pending.length === batch || at === seeds.length - 1) {
              applySiteChanges(index, pending, index.version + 1);
              pending = [];
            }
          });
          const sites = [...model.values()];
          const rebuilt = buildNameIndex(sites, 1);
          const reference = new ReferenceSiteTree(sites);
          expectConsistent(index);
          expect(sitesOf(index)).toEqual(sitesOf(rebuilt));
          for (const name of askedNames) {
            expect(siteIdsNamedOrGrouped(index, name)).toEqual(siteIdsNamedOrGrouped(rebuilt, name));
            for (const origin of originsOf(sites)) {
              const expected = reference.find(origin, name);
              expect(findClosestSiteId(index, origin, name)).toBe(expected);
              expect(findClosestSiteId(rebuilt, origin, name)).toBe(expected);
            }
          }
        }),
        { numRuns: 300 },
      );
    });

    it.each([
      [
        'a rename',
        { kind: 'put', site: { siteId: 121, parentId: 120, referenceType: 'Issues' } },
        'Tasks',
        133,
      ],
      [
        'a move',
        { kind: 'put', site: { siteId: 140, parentId: 0, referenceType: 'Issues', siteName: 'Notes' } },
        'Notes',
        131,
      ],
      [
        'a re-typed folder',
        { kind: 'put', site: { siteId: 122, parentId: 120, referenceType: 'Wikis' } },
        'Deep',
        151,
      ],
      ['a deletion', { kind: 'remove', siteId: 141 }, 'Twin', 142],
      [
        'a creation',
        { kind: 'put', site: { siteId: 500, parentId: 120, referenceType: 'Issues', siteName: 'Deep' } },
        'Deep',
        500,
      ],
    ] as const)('sees %s in the next version', (_change, change, name, expected) => {
      const index = buildNameIndex(ruleTree, 1);
      applySiteChanges(index, [change], 2);
      expect(index.version).toBe(2);
      expect(findClosestSiteId(index, 130, name)).toBe(expected);
    });

    it('links children that arrived before their parent', () => {
      const index = buildNameIndex([{ siteId: 2, parentId: 1, referenceType: 'Issues', siteName: 'x' }], 1);
      applySiteChanges(index, [{ kind: 'put', site: { siteId: 1, parentId: 0, referenceType: 'Sites' } }], 2);
      expect(index.parentSlots[index.slotOf.get(2) as number]).toBe(index.slotOf.get(1));
    });

    it.each([1, 0])('refuses version %i after version 1', (version) => {
      const index = buildNameIndex(ruleTree, 1);
      expect(() => applySiteChanges(index, [], version)).toThrow(RangeError);
    });
  });
});
