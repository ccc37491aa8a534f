import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { settings } from '../config/settings';
import { dynamo } from '../storage/clients';
import { tableName } from '../storage/tables';

/**
 * Session values in the Sessions table, keyed by SessionGuid and, under the owner's id, `User_<SessionKey>`:
 * a value belongs to the user who wrote it as well as to its session, so another user presenting the same
 * session cookie neither sees nor overwrites it.
 */
export interface SessionScope {
  /** The `Kiroku_SessionGuid` cookie's GUID, or `@<UserId>` for SavePerUser values. */
  readonly sessionGuid: string;
  readonly userId: number;
  /** Per-user values never expire; session values expire RetentionPeriod after their last write. */
  readonly perUser: boolean;
}

const table = () => tableName('sessions');

const keyOf = (scope: SessionScope, sessionKey: string) => ({
  SessionGuid: scope.sessionGuid,
  Key: `${scope.userId}/User_${sessionKey}`,
});

export async function putValue(scope: SessionScope, sessionKey: string, value: string): Promise<void> {
  const updatedAt = now();
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...keyOf(scope, sessionKey),
        UserId: scope.userId,
        SessionKey: sessionKey,
        Value: value,
        UpdatedAt: updatedAt,
        // DynamoDB's TTL removes the item some time after this; reads stop seeing it at the exact moment.
        ExpiresAt: scope.perUser ? undefined : Math.ceil((updatedAt + retentionMs()) / 1000),
      },
    }),
  );
}

export async function getValue(scope: SessionScope, sessionKey: string): Promise<string | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: keyOf(scope, sessionKey), ConsistentRead: true }),
  );
  const item = result.Item;
  if (!item || (!scope.perUser && Number(item.UpdatedAt) <= now() - retentionMs())) return undefined;
  return String(item.Value);
}

/** Deletes a value that is currently readable; false when there was none. */
export async function deleteValue(scope: SessionScope, sessionKey: string): Promise<boolean> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: table(),
        Key: keyOf(scope, sessionKey),
        ...(scope.perUser
          ? { ConditionExpression: 'attribute_exists(SessionGuid)' }
          : {
              ConditionExpression: 'attribute_exists(SessionGuid) AND UpdatedAt > :cutoff',
              ExpressionAttributeValues: { ':cutoff': now() - retentionMs() },
            }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Session.RetentionPeriod is read per request, so a change needs no restart. */
function retentionMs(): number {
  return settings().Session.RetentionPeriod * 60_000;
}
