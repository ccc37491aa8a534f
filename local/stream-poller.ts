import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type AttributeValue as SdkAttributeValue,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/log';
import { dynamoDbClientConfig } from '../lib/storage/clients';
import { openCheckpointStore, resumePositions } from './stream-checkpoints';

/**
 * Lambda's DynamoDB event source mapping, locally: polls the streams of local tables and invokes the
 * same stream handlers with the same event shape, so that what a handler sees on the local runtime is
 * what it sees in AWS. Like Lambda it reads each shard in order, retries a failing batch (or, with a partial
 * batch response, its failed part) a bounded number of times before handing it to onFailure and skipping it, and follows the shard changes of the stream.
 */

export interface StreamSubscription {
  /** Physical table name. */
  readonly tableName: string;
  /** Names the subscription's checkpoints, as a mapping's UUID does; the table name by default. */
  readonly name?: string;
  readonly handler: (event: DynamoDBStreamEvent) => Promise<unknown>;
}

export interface StreamPollerOptions {
  readonly subscriptions: readonly StreamSubscription[];
  /** Where to begin on the shards that exist at start: LATEST for npm start, as a new mapping does. */
  readonly startingPosition?: 'LATEST' | 'TRIM_HORIZON';
  /**
   * Keeps each subscription's position in this JSON file, so that a restart resumes where the last run
   * stopped; startingPosition then applies only to a stream without checkpoints.
   */
  readonly checkpointFile?: string;
  readonly batchSize?: number;
  readonly pollIntervalMs?: number;
  /** Retries of a failing batch before it is skipped (Lambda's MaximumRetryAttempts). */
  readonly maxRetryAttempts?: number;
  /** Read for the DynamoDB endpoint (which also serves the streams); process.env by default. */
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: (message: string, error?: unknown) => void;
  /** The failure destination: records still failing after the retries, before they are skipped. */
  readonly onFailure?: (failure: StreamBatchFailure) => void;
  /**
   * Subscribes to the writes this process makes (lib/storage/local-writes.ts onLocalWrites): a resting
   * shard of a table written to is read at once, so that only writers from outside wait out its rest.
   */
  readonly wakeOn?: (listener: (tables: readonly string[]) => void) => () => void;
}

/** What Lambda sends to an on-failure destination, with the records themselves rather than their range. */
export interface StreamBatchFailure {
  readonly subscription: string;
  readonly records: readonly DynamoDBRecord[];
  readonly error: unknown;
}

export interface StreamPoller {
  /** Stops polling; resolves once a batch in flight has been handled. */
  stop(): Promise<void>;
}

interface ShardState {
  iterator: string | undefined;
  parentId: string | undefined;
  /** Last record handled (or skipped), to resume after an expired iterator. */
  lastSequence: string | undefined;
  /** The shard is closed and fully read. */
  done: boolean;
  /** When an idle shard is read again (epoch ms): later than the poll interval when reading it is dear. */
  dueAt?: number;
  /** How often a write of this process woke the shard: a wake during a read keeps its answer from resting. */
  wakes: number;
}

/**
 * DynamoDB Local closes a shard and opens its child every few hours, and the poller learns of a closed
 * shard when reading it ends: the stream is described again then, and otherwise only this often.
 */
const SHARD_REFRESH_MS = 60_000;

/**
 * How long an idle shard rests after an empty read that took `elapsedMs`: the poll interval while reading
 * it is cheap (under DEAR_READ_MS), else `IDLE_COST_RATIO` times what the read cost, up to `MAX_IDLE_MS`.
 *
 * DynamoDB Local keeps the records of every stream in one SQLite table keyed by sequence number alone,
 * and each GetRecords looks up its shard's newest record (a scan back from the newest record of any
 * shard) and the records after the iterator (a scan forward over every later record of any shard). So
 * reading a shard that has been quiet since a big load elsewhere (100,000 Items records; the Tasks and
 * Binaries shards) costs two scans of the load, and its one SQLite thread serves every other request
 * behind them: polled every 150 ms by every subscription, they kept it busy for the 24 hours the records
 * stay, and a warm lookup took 246 ms instead of 4 ms. An idle shard is read at most 1/IDLE_COST_RATIO
 * of the time. A write of this process to its table (npm start's gateway and stream handlers: every write
of the service) ends the rest at once (`wakeOn`); a write from outside waits at most MAX_IDLE_MS, and only
while reading that shard is this dear.
 */
export function idleDelayMs(elapsedMs: number, intervalMs: number): number {
  if (elapsedMs < DEAR_READ_MS) return intervalMs;
  return Math.min(Math.max(intervalMs, elapsedMs * IDLE_COST_RATIO), Math.max(intervalMs, MAX_IDLE_MS));
}
/** An empty read that costs less than this is read again at the poll interval, as before. */
const DEAR_READ_MS = 250;
const IDLE_COST_RATIO = 50;
const MAX_IDLE_MS = 60_000;

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const config = dynamoDbClientConfig(options.env);
  const dynamodb = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const log =
    options.log ??
    ((message: string, error?: unknown) =>
      error === undefined ? logger.warn(message) : logger.error(message, error as Error));
  const batchSize = Math.min(options.batchSize ?? 100, 1000);
  const interval = options.pollIntervalMs ?? 150;
  const maxRetries = options.maxRetryAttempts ?? 3;
  let stopped = false;
  const sleepers = new Set<() => void>();
  // Once stopping, nothing waits: stop() would otherwise sit out a retry's backoff.
  const sleep = (ms: number) =>
    new Promise<void>((wake) => {
      if (stopped) return wake();
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        wake();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  async function listShards(streamArn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const page = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      shards.push(...(page.StreamDescription?.Shards ?? []));
      start = page.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  async function iterator(
    streamArn: string,
    shardId: string,
    type: 'LATEST' | 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER',
    sequence?: string,
  ): Promise<string | undefined> {
    const answer = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        SequenceNumber: sequence,
      }),
    );
    return answer.ShardIterator;
  }

  /** The shards at start: resumed from the subscription's checkpoints if any, else at startingPosition. */
  async function initialShards(subscription: StreamSubscription, streamArn: string) {
    const shards = await listShards(streamArn);
    const ids = new Set(shards.flatMap((shard) => shard.ShardId ?? []));
    const checkpoints = store.resume(nameOf(subscription), streamArn, ids);
    const states = new Map<string, ShardState>();
    if (checkpoints.size > 0) {
      for (const [id, start] of resumePositions(shards, checkpoints)) {
        states.set(id, {
          iterator: undefined,
          parentId: start.parentId,
          lastSequence: start.after,
          done: start.done,
          wakes: 0,
        });
      }
      return states;
    }
    const latest = options.startingPosition !== 'TRIM_HORIZON';
    for (const shard of shards) {
      const id = shard.ShardId;
      if (!id) continue;
      // At LATEST a closed shard has nothing left to give.
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      states.set(id, {
        iterator: latest && !closed ? await iterator(streamArn, id, 'LATEST') : undefined,
        parentId: shard.ParentShardId,
        lastSequence: undefined,
        done: latest && closed,
        wakes: 0,
      });
    }
    return states;
  }

  /** Picks up shards created since the last look, from their start; a child is read once its parent is done. */
  async function addNewShards(streamArn: string, states: Map<string, ShardState>) {
    for (const shard of await listShards(streamArn)) {
      const id = shard.ShardId;
      if (!id || states.has(id)) continue;
      states.set(id, {
        iterator: undefined,
        parentId: shard.ParentShardId,
        lastSequence: undefined,
        done: false,
        wakes: 0,
      });
    }
  }

  /**
   * Runs the batch as Lambda's mapping does with ReportBatchItemFailures: a thrown error fails the whole
   * batch; a `batchItemFailures` answer settles the records before its lowest sequence number, and the
   * rest is retried. After the retries, what still fails goes to the failure destination (onFailure) and
   * is skipped. `settled` is false when stopping left records unsettled; `last` is the last settled one.
   */
  async function handleBatch(subscription: StreamSubscription, streamArn: string, records: _Record[]) {
    let pending = records;
    let last: string | undefined;
    for (let attempt = 0; ; attempt++) {
      let failedFrom: number;
      let failure: unknown;
      try {
        const event = { Records: pending.map((record) => lambdaRecord(record, streamArn)) };
        failedFrom = firstFailure(pending, await subscription.handler(event));
        failure = new Error('the handler reported batch item failures');
      } catch (error) {
        failedFrom = 0;
        failure = error;
      }
      if (failedFrom > 0) last = pending[failedFrom - 1]?.dynamodb?.SequenceNumber;
      if (failedFrom < 0) return { settled: true, last: pending.at(-1)?.dynamodb?.SequenceNumber };
      pending = pending.slice(failedFrom);
      if (attempt >= maxRetries) {
        const first = pending[0]?.dynamodb?.SequenceNumber;
        log(
          `Stream handler for ${subscription.tableName} failed; skipping the records from ${first}`,
          failure,
        );
        options.onFailure?.({
          subscription: nameOf(subscription),
          records: pending.map((record) => lambdaRecord(record, streamArn)),
          error: failure,
        });
        return { settled: true, last: pending.at(-1)?.dynamodb?.SequenceNumber };
      }
      await sleep(Math.min(100 * 2 ** attempt, 2000));
      // Not checkpointed, so the next start delivers the rest again, as Lambda would retry it.
      if (stopped) return { settled: false, last };
    }
  }

  /** From the last record handled, else from the shard's start; a trimmed checkpoint falls back to the start. */
  async function resumeIterator(streamArn: string, id: string, state: ShardState) {
    if (!state.lastSequence) return iterator(streamArn, id, 'TRIM_HORIZON');
    try {
      return await iterator(streamArn, id, 'AFTER_SEQUENCE_NUMBER', state.lastSequence);
    } catch (error) {
      if (!(error instanceof TrimmedDataAccessException)) throw error;
      log(`The records after ${state.lastSequence} in ${id} were trimmed; reading from the oldest left`);
      return iterator(streamArn, id, 'TRIM_HORIZON');
    }
  }

  async function pollShard(
    subscription: StreamSubscription,
    streamArn: string,
    id: string,
    state: ShardState,
  ) {
    state.iterator ??= await resumeIterator(streamArn, id, state);
    let answer: GetRecordsCommandOutput;
    const started = Date.now();
    const wakes = state.wakes;
    try {
      answer = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: batchSize }));
    } catch (error) {
      // An expired or trimmed iterator is fetched again from the last record handled: routine, as Lambda's
      // event source mapping treats it, so one line in the log rather than a failure with its stack.
      state.iterator = undefined;
      if (error instanceof TrimmedDataAccessException || error instanceof ExpiredIteratorException) {
        log(
          `The iterator of ${id} (${subscription.tableName}) ran out; reading on from the last record handled`,
        );
        return 0;
      }
      throw error;
    }
    const records = answer.Records ?? [];
    // A write woken while the read was in flight may have come after the read looked: read again at once.
    const rests = records.length === 0 && state.wakes === wakes;
    state.dueAt = rests ? started + idleDelayMs(Date.now() - started, interval) : undefined;
    const outcome = records.length > 0 ? await handleBatch(subscription, streamArn, records) : undefined;
    if (outcome && !outcome.settled) {
      // Stopping mid-retry: what was settled stays settled; the rest is read again from there.
      if (outcome.last) {
        state.lastSequence = outcome.last;
        state.iterator = undefined;
        await store.save(nameOf(subscription), id, outcome.last);
      }
      return 0;
    }
    const last = outcome?.last;
    if (last) state.lastSequence = last;
    state.iterator = answer.NextShardIterator;
    if (!state.iterator) state.done = true;
    // After the state moved on: a failed write is retried by the next batch's, without a redelivery.
    if (last) await store.save(nameOf(subscription), id, last);
    return records.length;
  }

  async function run(subscription: StreamSubscription, streamArn: string, states: Map<string, ShardState>) {
    let refreshedAt = Date.now();
    let closed = countDone(states);
    while (!stopped) {
      let busy = false;
      try {
        // A shard read to its end has a child to read next: the stream is described again at once.
        if (
          Date.now() - refreshedAt > SHARD_REFRESH_MS ||
          countDone(states) !== closed ||
          [...states.values()].every((state) => state.done)
        ) {
          await addNewShards(streamArn, states);
          refreshedAt = Date.now();
          closed = countDone(states);
        }
        for (const [id, state] of states) {
          if (stopped) break;
          const parent = state.parentId ? states.get(state.parentId) : undefined;
          if (state.done || (parent && !parent.done) || (state.dueAt ?? 0) > Date.now()) continue;
          busy = (await pollShard(subscription, streamArn, id, state)) >= batchSize || busy;
        }
      } catch (error) {
        if (!stopped) log(`Polling the stream of ${subscription.tableName} failed`, error);
        await sleep(1000);
      }
      if (!busy) await sleep(interval);
    }
  }

  const store = await openCheckpointStore(options.checkpointFile);
  if (options.checkpointFile) assertDistinctNames(options.subscriptions);
  // Iterators for LATEST are taken before this function returns: a write made after start is seen.
  // Each table's shard states, every subscription's: a write of this process ends their rest; the next
  // tick (at most the poll interval away) reads them.
  const shardsOf = new Map<string, Map<string, ShardState>[]>();
  const stopWaking = options.wakeOn?.((tables) => {
    for (const table of tables) {
      for (const states of shardsOf.get(table) ?? [])
        for (const state of states.values()) {
          state.dueAt = undefined;
          state.wakes += 1;
        }
    }
  });
  const loops = await Promise.all(
    options.subscriptions.map(async (subscription) => {
      const table = await dynamodb.send(new DescribeTableCommand({ TableName: subscription.tableName }));
      const streamArn = table.Table?.LatestStreamArn;
      if (!streamArn) throw new Error(`Table ${subscription.tableName} has no stream`);
      const states = await initialShards(subscription, streamArn);
      shardsOf.set(subscription.tableName, [...(shardsOf.get(subscription.tableName) ?? []), states]);
      return () => run(subscription, streamArn, states);
    }),
  );
  const running = loops.map((loop) => loop());

  return {
    async stop() {
      stopped = true;
      stopWaking?.();
      for (const wake of [...sleepers]) wake();
      await Promise.all(running);
      dynamodb.destroy();
      streams.destroy();
    },
  };
}

/**
 * Where a partial batch response asks the retry to start: -1 when nothing failed, 0 when the whole batch
 * failed. As Lambda does, an identifier that is missing or not a record of the batch fails all of it.
 */
export function firstFailure(records: readonly _Record[], result: unknown): number {
  const failures = (result as { batchItemFailures?: unknown } | undefined)?.batchItemFailures;
  if (!Array.isArray(failures) || failures.length === 0) return -1;
  let first = records.length;
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const at = records.findIndex((record) => record.dynamodb?.SequenceNumber === id);
    if (typeof id !== 'string' || at < 0) return 0;
    first = Math.min(first, at);
  }
  return first;
}

function countDone(states: ReadonlyMap<string, ShardState>): number {
  return [...states.values()].filter((state) => state.done).length;
}

function nameOf(subscription: StreamSubscription): string {
  return subscription.name ?? subscription.tableName;
}

/** Two subscriptions under one name would overwrite each other's checkpoints. */
function assertDistinctNames(subscriptions: readonly StreamSubscription[]): void {
  const names = subscriptions.map(nameOf);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new Error(`Two stream subscriptions are named ${repeated}; give each its own name`);
}

const OPERATIONS = new Set(['INSERT', 'MODIFY', 'REMOVE']);

/** The SDK's record as Lambda delivers it: epoch-second times, base64 binaries, TTL removals named. */
export function lambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  const known = record.eventName !== undefined && OPERATIONS.has(record.eventName);
  // DynamoDB Local reports a TTL deletion as UNKNOWN_TO_SDK_VERSION without userIdentity; DynamoDB
  // reports it as REMOVE by the service principal (reference/local-emulators.md A).
  const ttlRemoval = !known && data.OldImage !== undefined && data.NewImage === undefined;
  const identity = record.userIdentity;
  return {
    eventID: record.eventID,
    eventName: known ? (record.eventName as DynamoDBRecord['eventName']) : ttlRemoval ? 'REMOVE' : undefined,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    dynamodb: {
      ...(data.ApproximateCreationDateTime && {
        ApproximateCreationDateTime: Math.floor(data.ApproximateCreationDateTime.getTime() / 1000),
      }),
      ...(data.Keys && { Keys: image(data.Keys) }),
      ...(data.NewImage && { NewImage: image(data.NewImage) }),
      ...(data.OldImage && { OldImage: image(data.OldImage) }),
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType,
    },
    eventSourceARN: streamArn,
    ...(identity
      ? { userIdentity: { type: identity.Type, principalId: identity.PrincipalId } }
      : ttlRemoval && { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } }),
  };
}

function image(values: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, attribute(value)]));
}

/** Lambda's event is JSON: binaries arrive base64-encoded where the SDK gives Uint8Arrays. */
function attribute(value: SdkAttributeValue): AttributeValue {
  // The SDK reads an empty map ({"M": {}} on the wire) as a union with no member at all: `{}`. An attribute
  // value always has exactly one member, so an empty one can only have been that map.
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((item) => Buffer.from(item).toString('base64')) };
  if (value.M !== undefined) return { M: image(value.M) };
  if (value.L !== undefined) return { L: value.L.map(attribute) };
  return value as AttributeValue;
}
