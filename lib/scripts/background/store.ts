import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { accountKeys as keys } from '../../accounts/keys';
import { now } from '../../clock';
import { ConcurrentChangeError } from '../../errors';
import { dynamo } from '../../storage/clients';
import { isConditionFailure } from '../../storage/conditions';
import { queryAll } from '../../storage/queries';
import { tableName } from '../../storage/tables';
import type { BackgroundScript } from './config';

/**
 * Where a tenant's background scripts live: the list beside the tenant in the Accounts table (one item, as
 * the reference keeps them in its TenantSettings), and one run row per scheduled script in a partition of
 * their own, holding when it runs next and how its last run went. The run rows are what the scheduled
 * handler reads each minute; the list is what it runs, read again when a run is claimed.
 */

export type RunStatus = 'Succeeded' | 'Failed' | 'Skipped';

export interface RunRow {
  readonly tenantId: number;
  readonly scriptId: number;
  /** Epoch ms; absent when the script has no run to come (no schedule, or a Once that has passed). */
  readonly nextRunAt?: number;
  readonly lastRunAt?: number;
  readonly lastStatus?: RunStatus;
  readonly lastMessage?: string;
}

const table = () => tableName('accounts');

export async function getScripts(
  tenantId: number,
): Promise<{ scripts: BackgroundScript[]; version: number }> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: table(), Key: keys.backgroundScripts(tenantId), ConsistentRead: true }),
  );
  if (!Item) return { scripts: [], version: 0 };
  return { scripts: JSON.parse(String(Item.Scripts)) as BackgroundScript[], version: Number(Item.Version) };
}

/** Replaces the list, if it is still at `version` (0: none yet); a change made meanwhile is a 409. */
export async function putScripts(tenantId: number, json: string, version: number): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...keys.backgroundScripts(tenantId),
          TenantId: tenantId,
          Scripts: json,
          Version: version + 1,
        },
        ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'Version = :version',
        ...(version > 0 && { ExpressionAttributeValues: { ':version': version } }),
      }),
    );
  } catch (error) {
    if (isConditionFailure(error))
      throw new ConcurrentChangeError(`tenant ${tenantId}'s background scripts changed meanwhile`);
    throw error;
  }
}

/** Sets when a script runs next (undefined: no run to come), keeping its last run. */
export async function setNextRun(
  tenantId: number,
  scriptId: number,
  next: number | undefined,
): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.backgroundRun(tenantId, scriptId),
      UpdateExpression:
        next === undefined
          ? 'SET TenantId = :tenant, ScriptId = :script REMOVE NextRunAt'
          : 'SET TenantId = :tenant, ScriptId = :script, NextRunAt = :next',
      ExpressionAttributeValues: {
        ':tenant': tenantId,
        ':script': scriptId,
        ...(next !== undefined && { ':next': next }),
      },
    }),
  );
}

export async function deleteRun(tenantId: number, scriptId: number): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: keys.backgroundRun(tenantId, scriptId) }));
}

/** Every script of every tenant whose next run is at or before `at`. */
export async function dueRuns(at: number): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for await (const item of queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'NextRunAt <= :at',
    ExpressionAttributeValues: { ':pk': keys.backgroundRun(0, 0).pk, ':at': at },
    ConsistentRead: true,
  })) {
    rows.push(toRow(item));
  }
  return rows;
}

/** The tenant's run rows. */
export async function runsOf(tenantId: number): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for await (const item of queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tenant)',
    ExpressionAttributeValues: { ':pk': keys.backgroundRun(0, 0).pk, ':tenant': `${tenantId}#` },
    ConsistentRead: true,
  })) {
    rows.push(toRow(item));
  }
  return rows;
}

/**
 * Takes the run that was due at `row.nextRunAt` for this invocation, moving the row on to `next`: of two
 * invocations that saw the same row, one takes it and the other gets false, so a due time runs once.
 */
export async function claimRun(row: RunRow, next: number | undefined): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.backgroundRun(row.tenantId, row.scriptId),
        UpdateExpression: next === undefined ? 'REMOVE NextRunAt' : 'SET NextRunAt = :next',
        ConditionExpression: 'NextRunAt = :seen',
        ExpressionAttributeValues: { ':seen': row.nextRunAt, ...(next !== undefined && { ':next': next }) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Keeps how a run ended, for the tenant's page; the row stays if the script was removed meanwhile. */
export async function recordRun(row: RunRow, status: RunStatus, message: string): Promise<void> {
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.backgroundRun(row.tenantId, row.scriptId),
        UpdateExpression: 'SET LastRunAt = :at, LastStatus = :status, LastMessage = :message',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': now(), ':status': status, ':message': message.slice(0, 1_000) },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

function toRow(item: Record<string, unknown>): RunRow {
  return {
    tenantId: Number(item.TenantId),
    scriptId: Number(item.ScriptId),
    ...(typeof item.NextRunAt === 'number' && { nextRunAt: item.NextRunAt }),
    ...(typeof item.LastRunAt === 'number' && { lastRunAt: item.LastRunAt }),
    ...(typeof item.LastStatus === 'string' && { lastStatus: item.LastStatus as RunStatus }),
    ...(typeof item.LastMessage === 'string' && { lastMessage: item.LastMessage }),
  };
}
