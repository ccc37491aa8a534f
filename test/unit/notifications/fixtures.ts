import type { ItemRecord } from '../../../lib/items/model';
import { siteModel } from '../../../lib/items/view/columns';
import type { NoticeContext } from '../../../lib/notifications/format';
import type { Site } from '../../../lib/sites/model';

/** A Results site, a record of it and the context a notice is formatted in, for the notification tests. */
export function site(siteSettings: Record<string, unknown> = {}): Site {
  return {
    siteId: 10,
    tenantId: 1,
    title: 'Orders',
    referenceType: 'Results',
    parentId: 0,
    inheritPermission: 10,
    permissions: [],
    siteSettings,
    creator: 1,
    updator: 1,
    createdAt: 0,
    updatedAt: 0,
    ver: 1,
  };
}

export function record(change: Partial<ItemRecord> = {}): ItemRecord {
  return {
    recordId: 100,
    tenantId: 1,
    siteId: 10,
    title: 'Order 1',
    body: 'first',
    status: 100,
    fields: {
      Class: { ClassA: 'a' },
      Num: { NumA: 5 },
      Date: {},
      Description: {},
      Check: {},
      Attachments: {},
    },
    manager: 2,
    owner: 3,
    locked: false,
    creator: 1,
    updator: 2,
    createdAt: Date.UTC(2026, 0, 1),
    updatedAt: Date.UTC(2026, 0, 2),
    ver: 1,
    version: 1,
    ...change,
  };
}

export function context(
  target: Site = site(),
): NoticeContext & { userId: number; zone: string; now: number } {
  const names: Record<number, string> = { 1: 'Alice', 2: 'Bob', 3: 'Carol' };
  return {
    site: target,
    columns: siteModel(target, 'en'),
    language: 'en',
    zone: 'Asia/Tokyo',
    resolve: (source, value) => (source.kind === 'users' ? names[Number(value)] : undefined),
    url: '/#/items/100',
    user: { name: 'Bob', loginId: 'bob' },
    userId: 2,
    now: Date.UTC(2026, 0, 3),
  };
}
