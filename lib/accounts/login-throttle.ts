import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { tableName } from '../storage/tables';
import { accountKeys } from './keys';

/**
 * Failed logins slow down per login id, so that a password cannot be guessed at the API's rate: after
 * FREE_FAILURES failures within the window, each further failure locks the login id for a doubling
 * time (30 s, 1 min, 2 min, … up to 15 min), during which every attempt is refused without a password
 * check. The count lives in the Accounts table next to the login id's claim, so it holds across Lambda
 * instances; it lapses a window after the last failure (TTL, and checked on read since TTL is lazy), and
 * a successful login clears it. Unknown login ids are counted alike: the answers tell nothing about them.
 */
export const FREE_FAILURES = 5;
export const FIRST_LOCK_MS = 30_000;
export const MAX_LOCK_MS = 15 * 60_000;
export const FAILURE_WINDOW_MS = 15 * 60_000;

export interface LoginFailures {
  readonly failures: number;
  /** Epoch milliseconds until which the login id is refused; 0 when it is not locked. */
  readonly lockedUntil: number;
}

const table = () => tableName('accounts');
const key = (loginId: string) => ({ pk: accountKeys.loginId(loginId).pk, sk: 'FAILURES' });

/** The login id's failures still in their window, or undefined. */
export async function loginFailures(loginId: string): Promise<LoginFailures | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: key(loginId), ConsistentRead: true }),
  );
  const item = result.Item;
  if (!item || !(Number(item.ExpiresAt) * 1000 > now())) return undefined;
  return { failures: Number(item.Failures), lockedUntil: Number(item.LockedUntil ?? 0) };
}

/** Counts a failure, atomically across instances, and locks the login id once past the free failures. */
export async function recordLoginFailure(loginId: string): Promise<LoginFailures> {
  const at = now();
  const counted = await countFailure(loginId, at);
  if (counted < FREE_FAILURES) return { failures: counted, lockedUntil: 0 };
  const lockedUntil = at + lockTime(counted);
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: key(loginId),
      UpdateExpression: 'SET LockedUntil = :locked, ExpiresAt = :expires',
      ExpressionAttributeValues: { ':locked': lockedUntil, ':expires': expiry(lockedUntil) },
    }),
  );
  return { failures: counted, lockedUntil };
}

/** A count lapses a window after its last failure, or after its lock if that ends later (epoch seconds). */
function expiry(from: number): number {
  return Math.ceil((from + FAILURE_WINDOW_MS) / 1000);
}

export async function clearLoginFailures(loginId: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: key(loginId) }));
}

/** How long the `failures`-th failure locks the login id. */
export function lockTime(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** Math.min(failures - FREE_FAILURES, 20));
}

/** Adds one to a count still in its window, or starts a new count over a lapsed one. */
async function countFailure(loginId: string, at: number): Promise<number> {
  const values = { ':one': 1, ':now': Math.floor(at / 1000), ':expires': expiry(at) };
  for (let attempt = 0; attempt < 3; attempt++) {
    const added = await unlessConditionFails(
      dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: key(loginId),
          // Each failure moves the window on (past any lock, which has ended: a locked id is not counted).
          UpdateExpression: 'ADD Failures :one SET ExpiresAt = :expires',
          ConditionExpression: 'attribute_not_exists(pk) OR ExpiresAt > :now',
          ExpressionAttributeValues: values,
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    if (added) return Number(added.Attributes?.Failures ?? 1);
    const restarted = await unlessConditionFails(
      dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: key(loginId),
          UpdateExpression: 'SET Failures = :one, ExpiresAt = :expires REMOVE LockedUntil',
          ConditionExpression: 'attribute_not_exists(ExpiresAt) OR ExpiresAt <= :now',
          ExpressionAttributeValues: values,
        }),
      ),
    );
    // Otherwise another instance restarted the count first: count on top of it.
    if (restarted) return 1;
  }
  throw new Error(`the failed logins of ${loginId} could not be counted: too many concurrent writers`);
}

/** The answer of a conditional write, or undefined when its condition failed. */
async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  return write.catch((error: unknown) => {
    if (isConditionFailure(error)) return undefined;
    throw error;
  });
}
