import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoDbClientConfig } from '../../lib/storage/clients';
import { tables } from '../../lib/storage/tables';
import type { StreamHandlerLoader } from '../../local/stream-subscriptions';
import { type Stack, startStack } from '../fixtures/stack';

/** startStack({ streams: true }): lib/streams.ts's wiring, fed by a fixture subscription and handler. */
describe('test/fixtures/stack', () => {
  describe('startStack with streams', () => {
    const client = new DynamoDBClient(dynamoDbClientConfig());
    const invocations: { name: string; event: DynamoDBStreamEvent; context: Context }[] = [];
    const loaded: string[] = [];
    const load: StreamHandlerLoader = async (name) => {
      loaded.push(name);
      return async (event, context) => {
        invocations.push({ name, event, context });
      };
    };
    let stack: Stack;

    beforeAll(async () => {
      stack = await startStack({
        streams: true,
        streamSubscriptions: [{ table: 'items', handler: 'fixture-index' }],
        loadStreamHandler: load,
      });
    });
    afterAll(async () => {
      await stack.close();
      client.destroy();
    });

    it('feeds the stack’s own table to the subscription’s handler with a Lambda context', async () => {
      await client.send(
        new PutItemCommand({
          TableName: stack.tables.items,
          Item: { [tables.items.partitionKey]: { S: 'fixture' }, [tables.items.sortKey]: { S: 'fixture' } },
        }),
      );
      await vi.waitFor(() => expect(invocations).toHaveLength(1), { timeout: 3000, interval: 50 });
      const [invocation] = invocations;
      expect(invocation?.name).toBe('fixture-index');
      expect(invocation?.event.Records[0]).toMatchObject({
        eventName: 'INSERT',
        eventSourceARN: expect.stringContaining(`table/${stack.tables.items}/stream/`),
      });
      expect(invocation?.context).toMatchObject({ functionName: 'fixture-index' });
      expect(invocation?.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
    });

    it('loads the handler once, on first use, like a cold start', () => {
      expect(loaded).toEqual(['fixture-index']);
    });
  });
});
