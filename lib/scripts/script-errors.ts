import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { logger } from '../log';
import { itemKeys } from '../sites/keys';
import { requireSiteManager } from '../sites/permissions';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { tableName } from '../storage/tables';

/**
 * A site's last script failures (issue 27), where its managers can read why a script stopped without the
 * service's log: what failed, when, and the reason the log has (the script's own message or the limit it
 * hit), nothing of the records it ran on. One item beside the site holds the last MAX_SCRIPT_ERRORS; site 0
 * holds the tenant's background scripts' (lib/scripts/background/).
 */

export const MAX_SCRIPT_ERRORS = 20;
/** A reason is cut to this many characters: a thrown message may be as long as the script likes. */
const MAX_REASON = 1_000;
const ATTEMPTS = 3;

export interface ScriptError {
  /** Epoch ms. */
  readonly at: number;
  readonly siteId: number;
  readonly condition: string;
  readonly script: string;
  readonly reason: string;
}

const table = () => tableName('items');

/**
 * Keeps a failure with the site's last ones. A failure to keep it is logged, never the caller's: the
 * request has failed already for its own reason, which must be what it answers.
 */
export async function recordScriptError(tenantId: number, error: Omit<ScriptError, 'at'>): Promise<void> {
  const entry: ScriptError = { at: now(), ...error, reason: error.reason.slice(0, MAX_REASON) };
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const { errors, version } = await stored(tenantId, error.siteId);
      try {
        await dynamo().send(
          new PutCommand({
            TableName: table(),
            Item: {
              ...itemKeys.scriptErrors(tenantId, error.siteId),
              Errors: [...errors, entry].slice(-MAX_SCRIPT_ERRORS),
              Version: version + 1,
            },
            ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'Version = :version',
            ...(version > 0 && { ExpressionAttributeValues: { ':version': version } }),
          }),
        );
        return;
      } catch (failure) {
        if (!isConditionFailure(failure) || attempt === ATTEMPTS) throw failure;
      }
    }
  } catch (failure) {
    logger.error('a server script failure could not be kept for the site', { ...error, error: failure });
  }
}

/** The site's last failures, newest first: ManageSite on the site. */
export async function siteScriptErrors(principal: Principal, siteId: number): Promise<ScriptError[]> {
  await requireSiteManager(principal, siteId);
  return (await stored(principal.tenantId, siteId)).errors.reverse();
}

/** The tenant's background scripts' last failures, newest first (their page checks the caller). */
export async function backgroundScriptErrors(tenantId: number): Promise<ScriptError[]> {
  return (await stored(tenantId, 0)).errors.reverse();
}

async function stored(tenantId: number, siteId: number): Promise<{ errors: ScriptError[]; version: number }> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: table(),
      Key: itemKeys.scriptErrors(tenantId, siteId),
      ConsistentRead: true,
    }),
  );
  return {
    errors: Array.isArray(Item?.Errors) ? (Item.Errors as ScriptError[]) : [],
    version: Number(Item?.Version ?? 0),
  };
}
