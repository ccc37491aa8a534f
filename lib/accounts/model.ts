export interface Tenant {
  readonly tenantId: number;
  readonly tenantName: string;
  readonly createdAt: number;
}

export interface User {
  readonly userId: number;
  readonly tenantId: number;
  readonly loginId: string;
  readonly name: string;
  readonly tenantManager: boolean;
  readonly disabled: boolean;
  readonly passwordHash?: string;
  readonly apiKeyHash?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface Group {
  readonly groupId: number;
  readonly tenantId: number;
  readonly groupName: string;
  readonly memberIds: readonly number[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface Login {
  readonly userId: number;
  /** Epoch seconds: the TTL attribute, and the moment the login ends. */
  readonly expiresAt: number;
}
