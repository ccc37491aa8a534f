import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Shard } from '@aws-sdk/client-dynamodb-streams';
import * as z from 'zod';

/**
 * Where the local stream poller stands in each stream, kept across restarts as Lambda's event source
 * mapping keeps its position: records written while the service was stopped are handled at the next
 * start, so that a handler's derived state (the site-name index) catches up instead of staying stale.
 */

const checkpointFileSchema = z.object({
  subscriptions: z.record(
    z.string(),
    z.object({ streamArn: z.string(), shards: z.record(z.string(), z.string()) }),
  ),
});

type CheckpointFile = z.infer<typeof checkpointFileSchema>;

/** Shard id → sequence number of the last record handled (or skipped after its retries). */
export type ShardCheckpoints = ReadonlyMap<string, string>;

export interface CheckpointStore {
  /**
   * The saved checkpoints of a subscription on the shards that still exist; none when they were taken
   * on another stream (the table was recreated). From then on the store writes these, not the old ones.
   */
  resume(subscription: string, streamArn: string, shardIds: ReadonlySet<string>): ShardCheckpoints;
  /** Records that a shard was read up to `sequence`; resolves once the file says so. */
  save(subscription: string, shardId: string, sequence: string): Promise<void>;
}

/** A store backed by `file`, or one that forgets everything when there is no file. */
export async function openCheckpointStore(file: string | undefined): Promise<CheckpointStore> {
  if (!file) return { resume: () => new Map(), save: async () => undefined };
  const saved = await readCheckpointFile(file);
  // Only the subscriptions of this run are written back: checkpoints of vanished streams die here.
  const current: CheckpointFile = { subscriptions: {} };
  const write = serializedWriter(file);
  return {
    resume(subscription, streamArn, shardIds) {
      const previous = saved.subscriptions[subscription];
      const kept =
        previous?.streamArn === streamArn
          ? Object.entries(previous.shards).filter(([shardId]) => shardIds.has(shardId))
          : [];
      current.subscriptions[subscription] = { streamArn, shards: Object.fromEntries(kept) };
      return new Map(kept);
    },
    save(subscription, shardId, sequence) {
      const entry = current.subscriptions[subscription];
      if (!entry) throw new Error(`No checkpoints were resumed for ${subscription}`);
      entry.shards[shardId] = sequence;
      return write(JSON.stringify(current, null, 2));
    },
  };
}

async function readCheckpointFile(file: string): Promise<CheckpointFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { subscriptions: {} };
    throw error;
  }
  // Writes replace the file whole, so a bad file was edited by hand: starting over would silently
  // skip records, so the choice is left to whoever edited it.
  const parsed = checkpointFileSchema.safeParse(safeJson(text));
  if (!parsed.success) throw new Error(`${file} is not a stream checkpoint file; delete it to start afresh`);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Writes one after the other, each to a temporary file renamed over the old one (flushed first): a
 * crash leaves the previous checkpoints or the new ones, never a torn file.
 */
function serializedWriter(file: string): (text: string) => Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  let queue: Promise<void> = mkdir(dirname(file), { recursive: true }).then(() => undefined);
  return (text) => {
    const written = queue.then(async () => {
      await writeFile(temporary, text, { flush: true });
      await rename(temporary, file);
    });
    queue = written.catch(() => undefined); // one failed write does not block the next
    return written;
  };
}

export interface ShardStart {
  readonly parentId: string | undefined;
  /** Resume after this sequence number; none means from TRIM_HORIZON. */
  readonly after: string | undefined;
  /** Already read before the checkpoints were taken. */
  readonly done: boolean;
}

/**
 * Where each shard resumes: after its checkpoint if it has one. A shard without one is done if it is an
 * ancestor of a checkpointed shard (a child is read only once its parent is), and otherwise new since
 * the checkpoints, or a child of a trimmed shard, and read from TRIM_HORIZON.
 */
export function resumePositions(
  shards: readonly Shard[],
  checkpoints: ShardCheckpoints,
): Map<string, ShardStart> {
  const parents = new Map(shards.map((shard) => [shard.ShardId, shard.ParentShardId]));
  const ancestors = new Set<string>();
  for (const id of checkpoints.keys()) {
    for (let parent = parents.get(id); parent && !ancestors.has(parent); parent = parents.get(parent)) {
      ancestors.add(parent);
    }
  }
  const positions = new Map<string, ShardStart>();
  for (const { ShardId: id, ParentShardId: parentId } of shards) {
    if (!id) continue;
    const after = checkpoints.get(id);
    positions.set(id, { parentId, after, done: after === undefined && ancestors.has(id) });
  }
  return positions;
}
