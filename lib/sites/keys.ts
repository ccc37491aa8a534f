/**
 * Key builders for the Items table, in one place. Every key but the id counter starts with the tenant, so
 * another tenant's id is simply not found. Sites and records share one id sequence (as in the reference),
 * global rather than per tenant so that an id names one item only.
 */
const item = (tenantId: number, id: number) => `T${tenantId}#ID#${id}`;

/** Ids padded to 15 digits sort as numbers in the indexes' string sort keys. */
export const orderKey = (id: number) => String(id).padStart(15, '0');

export const itemKeys = {
  counter: () => ({ pk: 'COUNTER', sk: 'ID' }),
  /** A site or a record. */
  item: (tenantId: number, id: number) => ({ pk: item(tenantId, id), sk: 'ITEM' }),
  /** A site's record count, beside the site, so record writes never touch the site item (nor its stream). */
  recordCount: (tenantId: number, siteId: number) => ({ pk: item(tenantId, siteId), sk: 'RECORDCOUNT' }),
  /** A site's API calls on one UTC day (Api.LimitPerSite); deleted with the site. */
  apiCount: (tenantId: number, siteId: number, day: string) => ({
    pk: item(tenantId, siteId),
    sk: `API#${day}`,
  }),
} as const;

/** The `Contents` index: a site's child sites and, apart, its records, in id order. */
export const containerKeys = {
  children: (tenantId: number, parentId: number) => `T${tenantId}#CHILDREN#${parentId}`,
  records: (tenantId: number, siteId: number) => `T${tenantId}#RECORDS#${siteId}`,
} as const;

/** The `TenantSites` index: every site of a tenant. */
export const tenantSitesKey = (tenantId: number) => `T${tenantId}#SITES`;
