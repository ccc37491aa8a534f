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
  /**
   * The composite title (TitleColumns joined by TitleSeparator, reference/pleasanter-columns.md 1), as the
   * reference keeps it in Items.Title: what ItemTitle answers and a link shows. Absent: the Title itself.
   */
  readonly itemTitle?: string;
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
  /** Record-level permission rows (`User,<id>,<bits>`...), set by update only (lib/items/record-permissions.ts). */
  readonly permissions?: readonly string[];
  readonly locked: boolean;
  readonly lockedBy?: number;
  readonly lockedAt?: number;
  readonly creator: number;
  readonly updator: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The write counter: raised by every write, which is conditional on it (optimistic concurrency). */
  readonly ver: number;
  /**
   * The reference's Ver, which the API answers: raised only by a version up (lib/items/record-versions.ts),
   * when the record as it was is kept as a history row.
   */
  readonly version: number;
}

export interface Comment {
  readonly commentId: number;
  readonly createdAt: number;
  readonly creator: number;
  readonly body: string;
}

/** What a record is called: its composite title (ItemTitle), else its Title. */
export function itemTitleOf(record: Pick<ItemRecord, 'title' | 'itemTitle'>): string {
  return record.itemTitle ?? record.title;
}
