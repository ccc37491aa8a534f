/** The API's shapes the pages read (sites, child sites, records), apart from the calls that fetch them. */

export interface ChildSite {
  readonly SiteId: number;
  readonly ParentId: number;
  readonly Title: string;
  readonly ReferenceType: 'Sites' | 'Issues' | 'Results' | 'Wikis' | 'Dashboards';
  readonly SiteName?: string;
  readonly Permission: number;
  /** A deleted site's (childsites with TableType Deleted): when, and by whom. */
  readonly DeletedTime?: string;
  readonly Deleter?: number;
}

export interface Site {
  readonly SiteId: number;
  readonly Title: string;
  readonly ReferenceType: ChildSite['ReferenceType'];
  readonly SiteName?: string;
  readonly SiteGroupName?: string;
  readonly ParentId: number;
  readonly InheritPermission: number;
  readonly Permissions: string[];
  readonly SiteSettings: Record<string, unknown>;
}

export type RecordData = Record<string, unknown> & {
  SiteId: number;
  Title?: string;
  Body?: string;
  Status?: number;
  Ver?: number;
  UpdatedTime?: string;
};
