import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Shard } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckpointStore, resumePositions } from '../../../local/stream-checkpoints';

const shard = (id: string, parent?: string): Shard => ({ ShardId: id, ParentShardId: parent });

describe('local/stream-checkpoints', () => {
  describe('resumePositions', () => {
    // root → a → b (checkpointed) → c; b → d; e unrelated; f's parent was trimmed.
    const shards = [
      shard('root'),
      shard('a', 'root'),
      shard('b', 'a'),
      shard('c', 'b'),
      shard('d', 'b'),
      shard('e'),
      shard('f', 'trimmed'),
    ];
    const positions = resumePositions(shards, new Map([['b', '42']]));

    it.each([
      ['resumes a checkpointed shard after its checkpoint', 'b', { parentId: 'a', after: '42', done: false }],
      [
        'counts an ancestor of a checkpointed shard as read',
        'a',
        { parentId: 'root', after: undefined, done: true },
      ],
      [
        'counts every ancestor up the line as read',
        'root',
        { parentId: undefined, after: undefined, done: true },
      ],
      [
        'reads a child of a checkpointed shard from TRIM_HORIZON',
        'c',
        { parentId: 'b', after: undefined, done: false },
      ],
      ['reads a sibling child from TRIM_HORIZON too', 'd', { parentId: 'b', after: undefined, done: false }],
      ['reads a newer shard from TRIM_HORIZON', 'e', { parentId: undefined, after: undefined, done: false }],
      [
        'reads the child of a trimmed shard from TRIM_HORIZON',
        'f',
        { parentId: 'trimmed', after: undefined, done: false },
      ],
    ])('%s', (_, id, expected) => {
      expect(positions.get(id)).toEqual(expected);
    });
  });

  describe('openCheckpointStore', () => {
    let directory: string;
    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'kiroku-checkpoint-store-'));
    });
    afterAll(() => rm(directory, { recursive: true, force: true }));

    const saved = (streamArn: string, shards: Record<string, string>) =>
      JSON.stringify({ subscriptions: { index: { streamArn, shards } } });

    it('drops the checkpoints of shards that no longer exist', async () => {
      const file = join(directory, 'trimmed.json');
      await writeFile(file, saved('arn:stream', { gone: '1', kept: '2' }));
      const store = await openCheckpointStore(file);
      expect(store.resume('index', 'arn:stream', new Set(['kept', 'new']))).toEqual(new Map([['kept', '2']]));
      await store.save('index', 'new', '3');
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        subscriptions: { index: { streamArn: 'arn:stream', shards: { kept: '2', new: '3' } } },
      });
    });

    it('returns nothing for checkpoints taken on another stream, and forgets them at the next save', async () => {
      const file = join(directory, 'recreated.json');
      await writeFile(file, saved('arn:old-stream', { shard: '1' }));
      const store = await openCheckpointStore(file);
      expect(store.resume('index', 'arn:new-stream', new Set(['shard']))).toEqual(new Map());
      await store.save('index', 'shard', '7');
      expect(JSON.parse(await readFile(file, 'utf8')).subscriptions.index).toEqual({
        streamArn: 'arn:new-stream',
        shards: { shard: '7' },
      });
    });

    it('keeps every save in order when saves overlap', async () => {
      const file = join(directory, 'nested', 'overlap.json');
      const store = await openCheckpointStore(file);
      store.resume('index', 'arn:stream', new Set());
      await Promise.all(['1', '2', '3'].map((sequence) => store.save('index', 'shard', sequence)));
      expect(JSON.parse(await readFile(file, 'utf8')).subscriptions.index.shards).toEqual({ shard: '3' });
    });
  });
});
