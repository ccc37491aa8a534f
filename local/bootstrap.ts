import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  type Projection,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamoDbClientConfig } from '../lib/storage/clients';
import {
  type GlobalIndexDefinition,
  type TableDefinition,
  type TableKey,
  tables,
} from '../lib/storage/tables';

/**
 * Creates the tables of lib/storage/tables.ts in the local DynamoDB, as the CDK app does in AWS, and
 * points the handlers at them through each table's environment variable. Idempotent: with a persistent
 * data dir the tables already exist, and only what a newer definition adds (a stream, an index, TTL) is applied.
 */

export interface EnsureTablesOptions {
  /** Physical names are `<prefix><id>`: 'kiroku-' for npm start, a unique prefix per test stack. */
  readonly prefix: string;
  /** Read for the endpoint and written with the table names; process.env by default. */
  readonly env?: NodeJS.ProcessEnv;
}

export async function ensureTables(options: EnsureTablesOptions): Promise<Record<TableKey, string>> {
  const env = options.env ?? process.env;
  const client = new DynamoDBClient(dynamoDbClientConfig(env));
  try {
    const entries = Object.entries(tables) as [TableKey, TableDefinition][];
    const names = Object.fromEntries(entries.map(([key, table]) => [key, `${options.prefix}${table.id}`]));
    await Promise.all(entries.map(([key, table]) => ensureTable(client, names[key] as string, table)));
    for (const [key, table] of entries) env[table.envVar] = names[key];
    return names as Record<TableKey, string>;
  } finally {
    client.destroy();
  }
}

async function ensureTable(client: DynamoDBClient, name: string, definition: TableDefinition): Promise<void> {
  let table = await describe(client, name);
  if (!table) {
    // Every key attribute is a string: the definitions carry no type because all of Kiroku's keys are
    // composed strings (`User_<key>`, `TENANT#1`), which is also what the CDK app declares.
    const keys: KeySchemaElement[] = [{ AttributeName: definition.partitionKey, KeyType: 'HASH' }];
    if (definition.sortKey) keys.push({ AttributeName: definition.sortKey, KeyType: 'RANGE' });
    const indexes = definition.globalIndexes ?? [];
    const attributes = stringAttributes([
      ...keys.map((key) => key.AttributeName as string),
      ...indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ]);
    try {
      const created = await client.send(
        new CreateTableCommand({
          TableName: name,
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: keys,
          AttributeDefinitions: attributes,
          ...(indexes.length > 0 && { GlobalSecondaryIndexes: indexes.map(globalIndex) }),
          ...(definition.stream && {
            StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
          }),
        }),
      );
      table = created.TableDescription;
    } catch (error) {
      // Two processes (a test worker and another) creating the same table: the other one won.
      if (!(error instanceof ResourceInUseException)) throw error;
      table = await describe(client, name);
    }
  } else if (definition.stream && !table.StreamSpecification?.StreamEnabled) {
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      }),
    );
  }
  if (table) await addMissingIndexes(client, name, table, definition.globalIndexes ?? []);
  if (definition.ttlAttribute) {
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
    const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
    if (status !== 'ENABLED' && status !== 'ENABLING') {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { Enabled: true, AttributeName: definition.ttlAttribute },
        }),
      );
    }
  }
}

/** A newer definition's index on a table made before it: DynamoDB takes one new index per UpdateTable. */
async function addMissingIndexes(
  client: DynamoDBClient,
  name: string,
  table: TableDescription,
  indexes: readonly GlobalIndexDefinition[],
): Promise<void> {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of indexes.filter((index) => !present.has(index.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: stringAttributes([index.partitionKey, index.sortKey]),
        GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
      }),
    );
  }
}

function globalIndex(index: GlobalIndexDefinition): GlobalSecondaryIndex {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: projection(index),
  };
}

function projection(index: GlobalIndexDefinition): Projection {
  const { projection = 'ALL' } = index;
  if (typeof projection === 'string') return { ProjectionType: projection };
  return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...projection.include] };
}

function stringAttributes(names: readonly string[]): AttributeDefinition[] {
  return [...new Set(names)].map((name) => ({ AttributeName: name, AttributeType: 'S' }));
}

async function describe(client: DynamoDBClient, name: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}
