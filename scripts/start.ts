import { resolve } from 'node:path';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { normalizeBasePath } from '../lib/config/base-path';
import { SettingsError, settings, useSettings } from '../lib/config/settings';
import { logger } from '../lib/log';
import { schedules } from '../lib/schedules';
import { onLocalWrites } from '../lib/storage/local-writes';
import { streamSubscriptions } from '../lib/streams';
import { ensureTables } from '../local/bootstrap';
import {
  type DynamoDbLocal,
  JavaMissingError,
  requireJava,
  startDynamoDbLocal,
} from '../local/dynamodb-local';
import { type Gateway, startGateway } from '../local/gateway';
import { type S3Local, startS3Local } from '../local/s3-local';
import { type Scheduler, startScheduler } from '../local/scheduler';
import { type SmtpLocal, startSmtpLocal } from '../local/smtp-server';
import { type StreamPoller, startStreamPoller } from '../local/stream-poller';
import { pollerSubscriptions } from '../local/stream-subscriptions';
import { buildWeb } from '../web/build';

/**
 * `npm start`: the whole service on this machine (CONTRACT section 7). DynamoDB Local and s3rver keep
 * their data under KIROKU_DATA_DIR, the gateway serves the handlers of functions/ on PORT, and the
 * stream poller feeds the stream handlers. Everything listens on 127.0.0.1 only.
 */

const BUCKET = 'kiroku-local';
const TABLE_PREFIX = 'kiroku-';

let dynamodb: DynamoDbLocal | undefined;
let s3: S3Local | undefined;
let smtp: SmtpLocal | undefined;
let poller: StreamPoller | undefined;
let scheduler: Scheduler | undefined;
let gateway: Gateway | undefined;
let stopping = false;

async function main(): Promise<void> {
  try {
    settings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    logger.error(error.message);
    process.exit(1);
  }
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    logger.error(`PORT: not a port number: ${process.env.PORT}`);
    process.exit(1);
  }
  const heapMb = process.env.KIROKU_DYNAMODB_HEAP_MB
    ? Number(process.env.KIROKU_DYNAMODB_HEAP_MB)
    : undefined;
  if (heapMb !== undefined && !(Number.isInteger(heapMb) && heapMb >= 64)) {
    logger.error(
      `KIROKU_DYNAMODB_HEAP_MB: not a number of megabytes (64 or more): ${process.env.KIROKU_DYNAMODB_HEAP_MB}`,
    );
    process.exit(1);
  }
  const basePath = normalizeBasePath(process.env.KIROKU_BASE_PATH);
  const dataDir = resolve(process.env.KIROKU_DATA_DIR || '.data');
  // Before anything is written under the data directory: a machine without Java is told so and left as it was.
  requireJava();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  watchParent();

  const [startedDb, startedS3] = await Promise.allSettled([
    startDynamoDbLocal({ dbPath: resolve(dataDir, 'dynamodb'), heapMb }),
    startS3Local({ directory: resolve(dataDir, 's3'), buckets: [BUCKET] }),
  ]);
  if (startedDb.status === 'fulfilled') dynamodb = startedDb.value;
  if (startedS3.status === 'fulfilled') s3 = startedS3.value;
  if (startedDb.status === 'rejected') throw startedDb.reason;
  if (startedS3.status === 'rejected') throw startedS3.reason;
  if (!dynamodb || !s3) throw new Error('unreachable');
  void dynamodb.exited.then(({ code, signal }) => {
    if (stopping) return;
    logger.error('DynamoDB Local exited unexpectedly', { code, signal });
    void shutdown(1);
  });

  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  process.env.KIROKU_S3_ENDPOINT = s3.endpoint;
  process.env.KIROKU_BUCKET = BUCKET;
  const tables = await ensureTables({ prefix: TABLE_PREFIX });

  const administrator = await bootstrapAdministrator({
    apiKey: process.env.KIROKU_ADMIN_API_KEY || undefined,
    password: process.env.KIROKU_ADMIN_PASSWORD || undefined,
  });
  if (administrator.created && administrator.apiKey && !process.env.KIROKU_ADMIN_API_KEY) {
    logger.info(`Administrator API key: ${administrator.apiKey}`, { apiKey: administrator.apiKey });
  }
  if (administrator.created && administrator.password && !process.env.KIROKU_ADMIN_PASSWORD) {
    logger.info(`Administrator password: ${administrator.password}`, { password: administrator.password });
  }

  // LATEST only on the first start (as a new mapping): later starts resume from the checkpoints, so the
  // changes made while the service was stopped still reach the stream handlers.
  poller = await startStreamPoller({
    startingPosition: 'LATEST',
    checkpointFile: resolve(dataDir, 'stream-checkpoints.json'),
    subscriptions: pollerSubscriptions(streamSubscriptions, tables),
    wakeOn: onLocalWrites,
  });
  // The scheduled functions (the retries of notifications' deliveries), as the EventBridge rules run them.
  scheduler = startScheduler(schedules);

  smtp = await startMailServer(resolve(dataDir, 'mail'));

  // The browser UI's files, built from web/app as the CDK app builds them into the web functions' bundles.
  process.env.KIROKU_WEB_DIR = (await buildWeb(resolve(dataDir, 'web'))).outdir;
  gateway = await startGateway({ port, basePath });
  logger.info(`Kiroku is listening on ${gateway.url}`, { url: gateway.url });
}

/**
 * The local SMTP server (local/smtp-server.ts) on KIROKU_SMTP_PORT (default 2525, or a free port when that
 * one is taken and none was asked for), its mail kept under `<data>/mail`. The handlers send to it unless
 * the settings name another SMTP host, and `mailbox/get` reads its directory.
 */
async function startMailServer(directory: string): Promise<SmtpLocal> {
  const asked = process.env.KIROKU_SMTP_PORT;
  const port = asked ? Number(asked) : 2525;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`KIROKU_SMTP_PORT: not a port number: ${asked}`);
  const started = await startSmtpLocal({ directory, port }).catch((error: NodeJS.ErrnoException) => {
    if (asked || error.code !== 'EADDRINUSE') throw error;
    return startSmtpLocal({ directory, port: 0 });
  });
  process.env.KIROKU_MAILBOX_DIR = started.directory;
  const current = settings();
  if (!current.Mail.SmtpHost) {
    useSettings({
      ...current,
      Mail: {
        ...current.Mail,
        SmtpHost: started.host,
        SmtpPort: started.port,
        From: current.Mail.From ?? 'kiroku@localhost',
      },
    });
  }
  const endpoint = `smtp://${started.host}:${started.port}`;
  logger.info(`Mail is received on ${endpoint} and kept in ${started.directory}`, { smtp: endpoint });
  return started;
}

/**
 * A process manager or a CI job stops `npm start` by signalling npm. The script execs node so that the
 * signal reaches this process; should npm die some other way (SIGKILL, a closed terminal), this process
 * is handed to another parent, and it stops too rather than keep the port and the JVM.
 */
function watchParent(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0);
  }, 500).unref();
}

function onSignal(signal: NodeJS.Signals): void {
  // A second Ctrl-C while shutting down means "now": the exit hook still kills the JVM.
  process.once(signal, () => process.exit(1));
  void shutdown(0);
}

/** Stops in reverse order of start: no request reaches a handler whose storage is gone. */
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const steps: [string, (() => Promise<void>) | undefined][] = [
    ['gateway', gateway?.close],
    ['scheduler', async () => scheduler?.stop()],
    ['stream poller', poller?.stop],
    ['SMTP server', smtp?.stop],
    ['S3 emulator', s3?.stop],
    ['DynamoDB Local', dynamodb?.stop],
  ];
  for (const [name, stop] of steps) {
    try {
      await stop?.();
    } catch (error) {
      logger.error(`stopping the ${name} failed`, error as Error);
      code ||= 1;
    }
  }
  process.exit(code);
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError) logger.error(error.message);
  else logger.error('Kiroku failed to start', error as Error);
  void shutdown(1);
});
