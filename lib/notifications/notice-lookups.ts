import { tenantUsers } from '../accounts/directory';
import { getTenant } from '../accounts/repository';
import type { ChoiceResolver } from '../columns/display';
import { basePath } from '../config/base-path';
import { settings } from '../config/settings';
import type { ItemRecord } from '../items/model';
import { siteModel } from '../items/view/columns';
import type { Site } from '../sites/model';
import { getSite } from '../sites/repository';
import type { NoticeContext } from './format';

/** What the notices of one batch read more than once: each site, and each tenant's users and zone. */
export class Lookups {
  private readonly sites = new Map<string, Promise<Site | undefined>>();

  private readonly users = new Map<number, Promise<Map<number, { name: string; loginId: string }>>>();
  private readonly zones = new Map<number, Promise<string>>();

  async context(site: Site, record: ItemRecord): Promise<NoticeContext> {
    const language = settings().Service.DefaultLanguage;
    const [users, zone] = await Promise.all([this.usersOf(site.tenantId), this.zoneOf(site.tenantId)]);
    const resolve: ChoiceResolver = (source, value) =>
      source.kind === 'users' ? users.get(Number(value))?.name : undefined;
    const acting = users.get(record.updator);
    return {
      site,
      columns: siteModel(site, language),
      language,
      zone,
      resolve,
      url: recordUrl(record.recordId),
      user: { name: acting?.name ?? '', loginId: acting?.loginId ?? '' },
    };
  }

  site(tenantId: number, siteId: number): Promise<Site | undefined> {
    const key = `${tenantId}:${siteId}`;
    let site = this.sites.get(key);
    if (!site) {
      site = getSite(tenantId, siteId);
      this.sites.set(key, site);
    }
    return site;
  }

  private usersOf(tenantId: number) {
    let users = this.users.get(tenantId);
    if (!users) {
      users = tenantUsers(tenantId).then(
        (list) => new Map(list.map((user) => [user.userId, { name: user.name, loginId: user.loginId }])),
      );
      this.users.set(tenantId, users);
    }
    return users;
  }

  private zoneOf(tenantId: number) {
    let zone = this.zones.get(tenantId);
    if (!zone) {
      zone = getTenant(tenantId).then((tenant) => tenant?.timeZone ?? settings().Service.TimeZoneDefault);
      this.zones.set(tenantId, zone);
    }
    return zone;
  }
}

/**
 * The record's page in the browser UI. Kiroku knows no public address of its own, so the link is the
 * path below the deployment's host (`/#/items/12`, under the base path when there is one).
 */
export function recordUrl(recordId: number): string {
  return `${basePath()}/#/items/${recordId}`;
}
