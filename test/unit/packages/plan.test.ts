import { describe, expect, it } from 'vitest';
import { remapIntegratedSites, treeOrder } from '../../../lib/packages/plan';
import type { SitePackage } from '../../../lib/packages/schemas';
import { integratedSiteEntries, isSiteIdEntry } from '../../../lib/sites/integrated-sites';

const site = (SiteId: number, ParentId: number, body: object = {}) => ({
  SiteId,
  Title: 't',
  ReferenceType: 'Sites' as const,
  ParentId,
  InheritPermission: SiteId,
  Permissions: [],
  SiteSettings: {},
  ...body,
});

describe('integrated-sites', () => {
  describe('integratedSiteEntries', () => {
    it.each([
      [{}, []],
      [{ IntegratedSites: [] }, []],
      [{ IntegratedSites: ['a', ' b , c,,', 'a', ' '] }, ['a', 'b', 'c']],
      [{ IntegratedSites: 'x, 12 ,x' }, ['x', '12']],
      [{ IntegratedSites: [12, 'Name', null, { a: 1 }, true] }, ['12', 'Name']],
    ])('reads %j as %j', (settings, entries) => {
      expect(integratedSiteEntries(settings)).toEqual(entries);
    });
  });

  describe('isSiteIdEntry', () => {
    it.each([
      ['1', true],
      ['123', true],
      ['0', false],
      ['-1', false],
      ['1.5', false],
      ['1e3', false],
      ['12a', false],
      ['9'.repeat(16), false],
    ])('%s → %s', (entry, expected) => {
      expect(isSiteIdEntry(entry)).toBe(expected);
    });
  });
});

describe('package-plan', () => {
  describe('treeOrder', () => {
    it('orders parents first, each parent children by id, whatever the listed order', () => {
      const pkg = { Sites: [site(4, 2), site(3, 1), site(2, 1), site(1, 50)] } as SitePackage;
      expect(treeOrder(pkg).map((s) => s.SiteId)).toEqual([1, 2, 3, 4]);
    });

    it('accepts inheritance from the site itself, a site above, or outside', () => {
      const pkg = {
        Sites: [
          site(1, 0, { InheritPermission: 77 }),
          site(2, 1, { InheritPermission: 1 }),
          site(3, 2, { InheritPermission: 1 }),
        ],
      } as SitePackage;
      expect(treeOrder(pkg)).toHaveLength(3);
    });

    it.each([
      ['two roots', [site(1, 0), site(2, 0)]],
      ['a cycle', [site(1, 0), site(2, 3), site(3, 2)]],
      ['a twice-listed id', [site(1, 0), site(1, 0)]],
      ['a child of a table', [site(1, 0, { ReferenceType: 'Issues' }), site(2, 1)]],
      ['inheritance from a sibling', [site(1, 0), site(2, 1), site(3, 1, { InheritPermission: 2 })]],
      ['inheritance from below', [site(1, 0, { InheritPermission: 2 }), site(2, 1)]],
    ])('refuses %s', (_case, sites) => {
      expect(() => treeOrder({ Sites: sites } as SitePackage)).toThrow(
        expect.objectContaining({ statusCode: 400 }),
      );
    });
  });

  describe('remapIntegratedSites', () => {
    const newIds = new Map([
      [1, 101],
      [2, 102],
    ]);

    it.each([
      ['a list', ['1', 'name', ' 2 , 3'], [], ['101', 'name', '102, 3']],
      ['a string', '1,2', [], '101,102'],
      ['numbers', [1, 3], [], [101, 3]],
      ['an entry a package site carries as a name', ['2', '1'], ['2'], ['2', '101']],
    ])('remaps %s; names and outside ids stay', (_case, setting, names, expected) => {
      const settings = { IntegratedSites: setting, Other: 1 };
      expect(remapIntegratedSites(settings, newIds, new Set(names))).toEqual({
        IntegratedSites: expected,
        Other: 1,
      });
    });

    it('leaves settings without the setting alone', () => {
      const settings = { Other: 1 };
      expect(remapIntegratedSites(settings, newIds, new Set())).toBe(settings);
    });
  });
});
