import type { Route } from './routes';
import { scriptHost } from './routes/route';

/**
 * The scheduled handlers: each entry runs `functions/<handler>.ts`'s export `handler` every `everyMinutes`
 * minutes. The CDK app makes an EventBridge Scheduler schedule per entry and `npm start` a timer
 * (local/scheduler.ts), from this same list.
 */
export interface ScheduleDefinition {
  readonly handler: string;
  readonly everyMinutes: number;
  /** The tables the handler may touch, and how, as in the route table. */
  readonly tables: Route['tables'];
  /** The binary bucket, when the handler touches it, and how. */
  readonly bucket?: Route['bucket'];
  /** Lambda timeout in seconds (default 29). */
  readonly timeoutSeconds?: number;
  /** Lambda memory in MB (default 1024). */
  readonly memoryMb?: number;
}

export const schedules: readonly ScheduleDefinition[] = [
  // The retries' clock (lib/notifications/wakeups.ts): each run covers its minute, so it may last one.
  {
    handler: 'delivery-retries',
    everyMinutes: 1,
    tables: { deliveries: 'write' },
    timeoutSeconds: 90,
    memoryMb: 256,
  },
  // Tenants' background server scripts (lib/scripts/background/run.ts): the reference's schedules are
  // whole minutes (Hourly in 5-minute steps, times as HH:mm), so a minute's tick runs each on its minute.
  // A script may do what a script on a record API may (lib/routes/route.ts scriptHost), its failures kept
  // beside the run rows (accounts).
  {
    handler: 'background-scripts',
    everyMinutes: 1,
    tables: scriptHost,
    bucket: 'write',
    timeoutSeconds: 300,
  },
];
