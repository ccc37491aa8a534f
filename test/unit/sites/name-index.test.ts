import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findClosestSiteId } from '../../../lib/sites/closest-site';
import { buildNameIndex, siteIdsNamed, siteIdsNamedOrGrouped, sitesOf } from '../../../lib/sites/name-index';
import { ReferenceSiteTree } from '../../fixtures/reference-site-tree';
import { askedNames, originsOf, randomTree, ruleTree } from '../../fixtures/site-trees';

const index = () => buildNameIndex(ruleTree, 1);

describe('sites/closest-site', () => {
  describe('findClosestSiteId', () => {
    // Every row is checked against the fast search and the port of the reference's walk.
    it.each([
      ['a sibling beats a lower-id site elsewhere and the origin’s subtree', 130, 'Tasks', 121],
      [
        'a deep match in a lower-id sibling folder beats a shallow one in a higher-id folder',
        130,
        'Deep',
        124,
      ],
      ['a sibling beats the origin’s own subtree', 130, 'Notes', 140],
      ['the origin’s subtree is searched before lower-id sibling folders', 130, 'Own', 132],
      ['the origin itself wins over a lower-id sibling', 130, 'Origin', 130],
      ['a tie among siblings goes to the lowest id', 130, 'Twin', 141],
      ['the origin wins a tie even with the higher id', 142, 'Twin', 142],
      ['going up: the parent itself matches, before its lower-id sibling', 130, 'Team', 120],
      ['going up: a direct sibling of the parent beats a lower-id one in a folder', 130, 'Plans', 115],
      ['going up: the parent’s lower-id sibling folder first, before the next level', 130, 'Archive', 113],
      ['going up: a site under an unknown-type leaf is never reached', 130, 'Hidden', 161],
      ['a leaf origin’s own children are not searched', 126, 'Hidden', 161],
      ['two levels up: the grandparent’s child beats a top-level subtree', 130, 'Reports', 103],
      ['three levels up: the top level, skipping the subtree already searched', 130, 'Ledger', 201],
      ['up to a direct match at the top level', 130, 'Stray', 404],
      ['orphans search their own group, under the missing parent', 401, 'Stray', 402],
      ['orphans never reach the top level', 401, 'Ledger', -1],
      ['a unique name wherever it is, even under a leaf', 130, 'Solo', 310],
      ['a unique name from a nonexistent origin', 99_999, 'Solo', 310],
      ['a unique name from origin 0', 0, 'Gadget', 126],
      ['-1 for a duplicated name from a nonexistent origin', 99_999, 'Tasks', -1],
      ['names are case-sensitive (nobody has it)', 130, 'tasks', -1],
      ['names are case-sensitive (another site has it)', 130, 'notes', 302],
      ['names are not trimmed', 130, 'Notes ', -1],
      ['an empty name', 130, '', -1],
      ['a name nobody has', 130, 'Nobody', -1],
      ['a SiteGroupName is not a SiteName', 130, 'Grouped', -1],
    ])('%s', (_rule, originId, name, expected) => {
      expect(findClosestSiteId(index(), originId, name)).toBe(expected);
      expect(new ReferenceSiteTree(ruleTree).find(originId, name)).toBe(expected);
    });

    it('answers like the reference’s walk on random trees, from every origin', () => {
      fc.assert(
        fc.property(randomTree, (sites) => {
          const fast = buildNameIndex(sites, 1);
          const reference = new ReferenceSiteTree(sites);
          for (const origin of originsOf(sites)) {
            for (const name of askedNames) {
              expect(findClosestSiteId(fast, origin, name)).toBe(reference.find(origin, name));
            }
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});

describe('sites/name-index', () => {
  describe('buildNameIndex', () => {
    it('keeps every site, with unknown types as Issues and empty names dropped', () => {
      const sites = sitesOf(index());
      expect(sites).toHaveLength(ruleTree.length);
      expect(sites.find((site) => site.siteId === 126)).toEqual({
        siteId: 126,
        parentId: 120,
        referenceType: 'Issues',
        siteName: 'Gadget',
        siteGroupName: undefined,
      });
      expect(sites.find((site) => site.siteId === 303)?.siteName).toBeUndefined();
    });

    it('refuses a site listed twice', () => {
      expect(() =>
        buildNameIndex([...ruleTree, { siteId: 100, parentId: 0, referenceType: 'Sites' }], 1),
      ).toThrow(/Site 100 is listed twice/);
    });
  });

  describe('siteIdsNamed', () => {
    it.each([
      ['Ledger', [201, 301]],
      ['notes', [302]],
      ['Grouped', []],
      ['', []],
    ])('lists the holders of %o, ascending', (name, expected) => {
      expect(siteIdsNamed(index(), name)).toEqual(expected);
    });
  });

  describe('siteIdsNamedOrGrouped', () => {
    it.each([
      ['Ledger', [201, 301, 302]],
      ['Grouped', [303]],
      ['Twin', [141, 142]],
      ['ledger', []],
      ['', []],
    ])('lists every site named or grouped %o, ascending', (entry, expected) => {
      expect(siteIdsNamedOrGrouped(index(), entry)).toEqual(expected);
    });

    it('lists a site once when its SiteName and SiteGroupName are the same', () => {
      const same = buildNameIndex(
        [{ siteId: 1, parentId: 0, referenceType: 'Results', siteName: 'x', siteGroupName: 'x' }],
        1,
      );
      expect(siteIdsNamedOrGrouped(same, 'x')).toEqual([1]);
    });
  });
});
