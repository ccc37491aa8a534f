/** Key builders for the Accounts table (pk, sk), in one place. */
export const accountKeys = {
  counter: (kind: CounterKind) => ({ pk: 'COUNTER', sk: kind }),
  tenant: (tenantId: number) => ({ pk: `TENANT#${tenantId}`, sk: 'TENANT' }),
  user: (userId: number) => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** A tenant's background server scripts (lib/scripts/background/), beside the tenant. */
  backgroundScripts: (tenantId: number) => ({ pk: `TENANT#${tenantId}`, sk: 'BACKGROUNDSCRIPTS' }),
  /**
   * When a background script runs next, with its last run: one partition for every tenant, so that the
   * scheduled run finds the scripts due with one Query (a few rows per tenant that uses them).
   */
  backgroundRun: (tenantId: number, scriptId: number) => ({
    pk: 'BACKGROUNDRUNS',
    sk: `${tenantId}#${scriptId}`,
  }),
  /** Login ids are unique across tenants (login names no tenant) and compared without case. */
  loginId: (loginId: string) => ({ pk: `LOGINID#${loginId.toLowerCase()}`, sk: 'LOGINID' }),
  apiKey: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  login: (hash: string) => ({ pk: `LOGIN#${hash}`, sk: 'LOGIN' }),
  group: (groupId: number) => ({ pk: `GROUP#${groupId}`, sk: 'GROUP' }),
  /** A user's membership of a group, so that a user's groups are one Query on the user's partition. */
  membership: (userId: number, groupId: number) => ({ pk: `USER#${userId}`, sk: `GROUP#${groupId}` }),
  dept: (deptId: number) => ({ pk: `DEPT#${deptId}`, sk: 'DEPT' }),
  /** A dept's membership of a group, so that a dept's groups are one Query on the dept's partition. */
  deptMembership: (deptId: number, groupId: number) => ({ pk: `DEPT#${deptId}`, sk: `GROUP#${groupId}` }),
  /**
   * The tenant's directory: one entry per user, group and dept in the tenant's partition, written in the
   * same transaction as the account itself, so that the list reads are one Query (the table has a TTL, and
   * DynamoDB Local refuses a GSI on such a table). Ids are zero-padded so that the entries sort by id.
   */
  directory: (tenantId: number, kind: DirectoryKind, id: number) => ({
    pk: `TENANT#${tenantId}`,
    sk: `${kind}#${String(id).padStart(15, '0')}`,
  }),
} as const;

export type DirectoryKind = 'USER' | 'GROUP' | 'DEPT';

export type CounterKind = 'Tenant' | 'User' | 'Group' | 'Dept';
