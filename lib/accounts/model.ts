export interface Tenant {
  readonly tenantId: number;
  readonly tenantName: string;
  /** IANA zone of the tenant's users who have none of their own (CONTRACT 5.1). */
  readonly timeZone?: string;
  readonly createdAt: number;
}

export interface User {
  readonly userId: number;
  readonly tenantId: number;
  readonly loginId: string;
  readonly name: string;
  readonly tenantManager: boolean;
  readonly disabled: boolean;
  /** The user's dept, if any: `Dept,<id>` permission entries and the dept's groups then apply to them. */
  readonly deptId?: number;
  /** IANA zone the user reads and writes dates in; else the tenant's, else Service.TimeZoneDefault. */
  readonly timeZone?: string;
  /** The language labels and dates are read in (CONTRACT 11); none: Service.DefaultLanguage. */
  readonly language?: 'ja' | 'en';
  /** Where mail to the user goes: `[UserN]` tokens and the From of the mails they send (CONTRACT 14). */
  readonly mailAddresses?: readonly string[];
  readonly passwordHash?: string;
  readonly apiKeyHash?: string;
  /**
   * Its login id, if listed in Security.PrivilegedUsers, was given by a privileged caller (or the first
   * start): only then is the user privileged (lib/accounts/privilege.ts).
   */
  readonly privilegeGranted?: boolean;
  /** Epoch ms: logins made before it have ended (a password change, disabling). */
  readonly loginsNotBefore?: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface Group {
  readonly groupId: number;
  readonly tenantId: number;
  readonly groupName: string;
  /** Users in the group (`User,<id>`). */
  readonly memberIds: readonly number[];
  /** Depts in the group (`Dept,<id>`): their users are members through them. */
  readonly deptIds: readonly number[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A department: users belong to at most one; a disabled dept grants nothing. */
export interface Dept {
  readonly deptId: number;
  readonly tenantId: number;
  readonly deptCode: string;
  readonly deptName: string;
  readonly disabled: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface Login {
  readonly userId: number;
  /** Epoch seconds: the TTL attribute, and the moment the login ends. */
  readonly expiresAt: number;
  /** Epoch ms: when it was made (or kept through its user's password change); absent on old logins. */
  readonly issuedAt?: number;
}
