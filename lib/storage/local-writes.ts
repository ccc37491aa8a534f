/**
 * The tables this process writes to, for the local runtime's stream poller (local/stream-poller.ts): it
 * reads a quiet shard seldom when reading it is dear (DynamoDB Local scans every stream's records to
 * answer), and a write of this process to that table wakes it at once. Only against a local endpoint; in
 * Lambda nothing listens and the client carries no such middleware.
 */

type Listener = (tables: readonly string[]) => void;
const listeners = new Set<Listener>();

/** Calls `listener` with the tables of each write made through this process's clients; returns an off. */
export function onLocalWrites(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

/** The names of the tables a write command's input touches. */
export function writtenTables(commandName: string, input: Record<string, unknown>): string[] {
  if (!WRITES.has(commandName)) return [];
  if (typeof input.TableName === 'string') return [input.TableName];
  if (input.RequestItems && typeof input.RequestItems === 'object') return Object.keys(input.RequestItems);
  const items = Array.isArray(input.TransactItems)
    ? (input.TransactItems as Record<string, { TableName?: unknown }>[])
    : [];
  return [
    ...new Set(
      items.flatMap((item) =>
        Object.values(item).flatMap((part) => (typeof part?.TableName === 'string' ? [part.TableName] : [])),
      ),
    ),
  ];
}

/** Reports each successful write to the listeners, after it is made (when its stream record exists). */
export function signalLocalWrites(client: {
  middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void };
}): void {
  const middleware =
    (
      next: (args: { input: Record<string, unknown> }) => Promise<unknown>,
      context: { commandName?: string },
    ) =>
    async (args: { input: Record<string, unknown> }) => {
      const result = await next(args);
      if (listeners.size > 0) {
        const tables = writtenTables(context.commandName ?? '', args.input);
        if (tables.length > 0) for (const listener of listeners) listener(tables);
      }
      return result;
    };
  client.middlewareStack.add(middleware as never, { step: 'initialize', name: 'kirokuLocalWrites' });
}
