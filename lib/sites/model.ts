export const referenceTypes = ['Sites', 'Issues', 'Results', 'Wikis', 'Dashboards'] as const;
export type ReferenceType = (typeof referenceTypes)[number];

/** The kinds of site that hold records; folders (`Sites`) and dashboards do not. */
export const recordHolders: ReadonlySet<ReferenceType> = new Set(['Issues', 'Results', 'Wikis']);

export interface Site {
  readonly siteId: number;
  readonly tenantId: number;
  readonly title: string;
  readonly referenceType: ReferenceType;
  readonly siteName?: string;
  readonly siteGroupName?: string;
  /** 0 at the top level. */
  readonly parentId: number;
  /** The site whose Permissions apply: its own id when it does not inherit. */
  readonly inheritPermission: number;
  /** `"User,<id>,<bits>"`, `"Group,<id>,<bits>"`, `"Dept,<id>,<bits>"`. */
  readonly permissions: readonly string[];
  readonly siteSettings: Record<string, unknown>;
  readonly creator: number;
  readonly updator: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly ver: number;
  /** Set by deletesite before it removes anything, so nothing new lands in a site on its way out. */
  readonly deleting?: boolean;
}

/** `"User,<id>,<bits>"`, `"Group,<id>,<bits>"`, `"Dept,<id>,<bits>"`; `User,-1` is every user. */
export const PERMISSION_ENTRY = /^(User|Group|Dept),(-1|\d{1,15}),(\d{1,3})$/;
