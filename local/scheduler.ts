import type { Context } from 'aws-lambda';
import { logger } from '../lib/log';
import type { ScheduleDefinition } from '../lib/schedules';
import { lambdaContext } from './lambda-context';
import { importStreamHandler } from './stream-subscriptions';

/**
 * lib/schedules.ts's entries under `npm start`: what the EventBridge Scheduler schedules are in AWS. Each handler runs
 * at the start of every `everyMinutes`-th minute of the clock, as a rate rule fires, with an empty event;
 * a run still going when the next is due is left to finish, and the next is skipped, as one function's
 * runs locally share this process.
 */

export type ScheduledHandler = (event: unknown, context: Context) => unknown;
export type ScheduledHandlerLoader = (name: string) => Promise<ScheduledHandler>;

export interface Scheduler {
  /** No run starts after this; one in progress ends at its own minute's end. */
  stop(): void;
}

export function startScheduler(
  definitions: readonly ScheduleDefinition[],
  load: ScheduledHandlerLoader = importStreamHandler as ScheduledHandlerLoader,
): Scheduler {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  for (const definition of definitions) {
    const period = definition.everyMinutes * 60_000;
    let running = false;
    const run = async () => {
      if (running || stopped) return;
      running = true;
      try {
        const handler = await load(definition.handler);
        await handler({}, lambdaContext(definition.handler, (definition.timeoutSeconds ?? 29) * 1000));
      } catch (error) {
        logger.error(`the scheduled functions/${definition.handler}.ts failed`, error as Error);
      } finally {
        running = false;
      }
    };
    const next = () => {
      if (stopped) return;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          void run();
          next();
        },
        period - (Date.now() % period),
      );
      timer.unref();
      timers.add(timer);
    };
    void run();
    next();
  }
  return {
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
