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
  readonly locked: boolean;
  readonly lockedBy?: number;
  readonly lockedAt?: number;
  readonly creator: number;
  readonly updator: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly ver: number;
}
