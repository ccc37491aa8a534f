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

/** The field families of CONTRACT section 5, each keyed by its column name (`ClassA`, `NumB`, ...). */
export interface RecordFields {
  readonly Class: Record<string, string>;
  readonly Num: Record<string, number>;
  readonly Date: Record<string, string>;
  readonly Description: Record<string, string>;
  readonly Check: Record<string, boolean>;
  readonly Attachments: Record<string, readonly Attachment[]>;
}

export interface Attachment {
  readonly Guid: string;
  readonly Name: string;
  readonly Added?: boolean;
  readonly [other: string]: unknown;
}

export interface ItemRecord {
  readonly recordId: number;
  readonly tenantId: number;
  readonly siteId: number;
  readonly title: string;
  readonly body?: string;
  readonly status?: number;
  readonly fields: RecordFields;
  /** User ids; 0 or absent: nobody. */
  readonly manager?: number;
  readonly owner?: number;
  /** Issues: instants (epoch ms); CompletionTime as stored, a date-only one already a day later. */
  readonly startTime?: number;
  readonly completionTime?: number;
  readonly workValue?: number;
  readonly progressRate?: number;
  /** Newest first; a write adds one at most (reference 4). */
  readonly comments?: readonly Comment[];
  readonly locked: boolean;
  readonly lockedBy?: number;
  readonly lockedAt?: number;
  readonly creator: number;
  readonly updator: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly ver: number;
}

export interface Comment {
  readonly commentId: number;
  readonly createdAt: number;
  readonly creator: number;
  readonly body: string;
}
