import { DescribeTableCommand, DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbClientConfig } from '../lib/storage/clients';

/**
 * Runs a bulk load with `table`'s stream turned off, then turns it on again: a new stream, empty.
 *
 * On DynamoDB Local, every GetRecords of a stream holding 100,000 records (the load's own) costs a scan in
 * its one SQLite thread, which every other request then queues behind: the local poller alone kept the
 * JVM at 100% CPU and put a warm GetClosestSiteId at 246 ms. In AWS GetRecords costs nothing of the
 * table's reads, and a load this size is a bench's, not a user's. The stream handlers see every change
 * made after the load, which is all a bench measures through them.
 */
export async function withStreamOff<T>(table: string, load: () => Promise<T>): Promise<T> {
  const client = new DynamoDBClient(dynamoDbClientConfig());
  try {
    await setStream(client, table, false);
    const loaded = await load();
    await setStream(client, table, true);
    return loaded;
  } finally {
    client.destroy();
  }
}

async function setStream(client: DynamoDBClient, table: string, enabled: boolean): Promise<void> {
  await client.send(
    new UpdateTableCommand({
      TableName: table,
      StreamSpecification: enabled
        ? { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' }
        : { StreamEnabled: false },
    }),
  );
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    if (Table?.TableStatus === 'ACTIVE' && (Table.StreamSpecification?.StreamEnabled ?? false) === enabled)
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
