import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../storage/clients';
import { tableName } from '../storage/tables';
import { accountKeys } from './keys';
import type { Tenant } from './model';

/**
 * The record that the first start happened: written with the first tenant, in one transaction, so that no
 * later start mistakes a renamed or deleted administrator for an empty database and creates another.
 */
const MARKER = { pk: 'BOOTSTRAP', sk: 'BOOTSTRAP' } as const;
const table = () => tableName('accounts');

export async function firstStartRecorded(): Promise<boolean> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: MARKER, ConsistentRead: true }),
  );
  return result.Item !== undefined;
}

/**
 * Whether the database was started before the marker existed: its first tenant or the administrator's
 * login id is there. Then only the marker is written.
 */
export async function startedBeforeMarker(loginId: string): Promise<boolean> {
  const [tenant, login] = await Promise.all(
    [accountKeys.tenant(1), accountKeys.loginId(loginId)].map((Key) =>
      dynamo().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true })),
    ),
  );
  return tenant?.Item !== undefined || login?.Item !== undefined;
}

/** The first tenant and the marker together; either both are written or neither. */
export async function putFirstTenant(tenant: Tenant, administratorId: number | undefined): Promise<void> {
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: {
              ...accountKeys.tenant(tenant.tenantId),
              TenantId: tenant.tenantId,
              TenantName: tenant.tenantName,
              CreatedAt: tenant.createdAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: table(),
            Item: {
              ...MARKER,
              TenantId: tenant.tenantId,
              UserId: administratorId,
              CreatedAt: tenant.createdAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

/** The marker alone, for a database started before it existed; a concurrent start may have written it. */
export async function recordFirstStart(): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: MARKER,
      UpdateExpression: 'SET Legacy = if_not_exists(Legacy, :true)',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}
