import { createHmac, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { ConcurrentChangeError } from '../errors';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { tableName } from '../storage/tables';
import { deliveryKeys } from './queue';

/**
 * Each site's signing secret (CONTRACT 14): the HttpClient deliveries carry `X-Kiroku-Signature:
 * sha256=<hex HMAC-SHA256 of the body's bytes>`, so that a receiver can tell Kiroku's requests from
 * anyone's. One row in the Deliveries table beside the site's deliveries, without a TTL; made on first
 * use. After a rotation the previous secret signs too for ROTATION_OVERLAP_MS, so that a receiver still
 * holding it keeps accepting deliveries until its owner has put in the new one.
 */

export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
export const SIGNATURE_HEADER = 'X-Kiroku-Signature';

export interface SiteSecret {
  readonly secret: string;
  readonly createdAt: string;
  /** The secret before the last rotation, while it still signs. */
  readonly previous?: { readonly secret: string; readonly until: string };
}

/** The site's secret, made now if it has none. */
export async function siteSecret(tenantId: number, siteId: number): Promise<SiteSecret> {
  const key = { pk: deliveryKeys.site(tenantId, siteId), sk: deliveryKeys.secret };
  const found = await dynamo().send(
    new GetCommand({ TableName: tableName('deliveries'), Key: key, ConsistentRead: true }),
  );
  if (found.Item) return fromItem(found.Item);
  const made = { secret: newSecret(), createdAt: new Date(now()).toISOString() };
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('deliveries'),
        Item: { ...key, TenantId: tenantId, SiteId: siteId, Secret: made.secret, CreatedAt: made.createdAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return made;
  } catch (error) {
    // Made at the same moment by another delivery or request: theirs stands.
    if (!isConditionFailure(error)) throw error;
    return siteSecret(tenantId, siteId);
  }
}

/** A new secret for the site; the one it replaces still signs for ROTATION_OVERLAP_MS. */
export async function rotateSiteSecret(tenantId: number, siteId: number): Promise<SiteSecret> {
  const current = await siteSecret(tenantId, siteId);
  const at = now();
  const rotated: SiteSecret = {
    secret: newSecret(),
    createdAt: new Date(at).toISOString(),
    previous: { secret: current.secret, until: new Date(at + ROTATION_OVERLAP_MS).toISOString() },
  };
  const put = new PutCommand({
    TableName: tableName('deliveries'),
    Item: {
      pk: deliveryKeys.site(tenantId, siteId),
      sk: deliveryKeys.secret,
      TenantId: tenantId,
      SiteId: siteId,
      Secret: rotated.secret,
      CreatedAt: rotated.createdAt,
      PreviousSecret: current.secret,
      PreviousUntil: rotated.previous?.until,
    },
    // Two rotations at once: the second one's "previous" would be a secret no receiver ever held.
    ConditionExpression: 'Secret = :current',
    ExpressionAttributeValues: { ':current': current.secret },
  });
  try {
    await dynamo().send(put);
  } catch (error) {
    if (isConditionFailure(error))
      throw new ConcurrentChangeError(`site ${siteId}'s secret rotated meanwhile`);
    throw error;
  }
  return rotated;
}

/**
 * The signature header's value: `sha256=<hex>` with the current secret, then, while the previous one
 * still signs, `, sha256=<hex>` with it. A receiver accepts the request when any one matches.
 */
export function signature(body: string | Buffer, secret: SiteSecret): string {
  const live = secret.previous && Date.parse(secret.previous.until) > now() ? [secret.previous.secret] : [];
  return [secret.secret, ...live]
    .map((key) => `sha256=${createHmac('sha256', key).update(body).digest('hex')}`)
    .join(', ');
}

function newSecret(): string {
  return randomBytes(32).toString('hex');
}

function fromItem(item: Record<string, unknown>): SiteSecret {
  const previous =
    typeof item.PreviousSecret === 'string' && typeof item.PreviousUntil === 'string'
      ? { secret: item.PreviousSecret, until: item.PreviousUntil }
      : undefined;
  return {
    secret: String(item.Secret),
    createdAt: String(item.CreatedAt),
    ...(previous && { previous }),
  };
}
