import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import type { TableKey } from '../lib/storage/tables';
import type { StreamSubscriptionDefinition } from '../lib/streams';
import { lambdaContext } from './lambda-context';
import type { StreamSubscription } from './stream-poller';

/**
 * lib/streams.ts's entries as stream poller subscriptions: what the CDK app's event source mappings are
 * in AWS, for npm start and for the test stack alike.
 */

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => unknown;
export type StreamHandlerLoader = (name: string) => Promise<StreamHandler>;

const FUNCTIONS_DIR = fileURLToPath(new URL('../functions', import.meta.url));

/** `functions/<name>.ts`'s export `handler`, as Lambda would load it. */
export const importStreamHandler: StreamHandlerLoader = async (name) => {
  const module: { handler?: unknown } = await import(pathToFileURL(join(FUNCTIONS_DIR, `${name}.ts`)).href);
  if (typeof module.handler !== 'function') throw new Error(`functions/${name}.ts exports no handler`);
  return module.handler as StreamHandler;
};

export function pollerSubscriptions(
  definitions: readonly StreamSubscriptionDefinition[],
  tables: Readonly<Record<TableKey, string>>,
  load: StreamHandlerLoader = importStreamHandler,
): StreamSubscription[] {
  return definitions.map((definition) => {
    const handler = lazily(() => load(definition.handler));
    return {
      tableName: tables[definition.table],
      // The handler's name, not the table's: two handlers may read one stream, each at its own pace.
      name: definition.handler,
      handler: async (event) => (await handler())(event, lambdaContext(definition.handler)),
    };
  });
}

/** Loaded on first use, like a cold start, and kept; a failed load (a module being edited) is retried. */
function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    if (!loaded) {
      loaded = load();
      loaded.catch(() => {
        loaded = undefined;
      });
    }
    return loaded;
  };
}
