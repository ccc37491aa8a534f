import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` as a newcomer, a process manager or a CI job runs it: through npm, stopped by a signal to
 * npm itself. Nothing of it may be left: not the node process, not DynamoDB Local's JVM, not the port.
 */

const directories: string[] = [];
afterAll(() => Promise.all(directories.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)(
    'stops everything when npm gets %s, and writes only JSON lines',
    async (signal) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'kiroku-start-'));
      directories.push(dataDir);
      const port = await freePort();
      const smtpPort = await freePort();
      const npm = spawn('npm', ['start'], {
        env: {
          ...process.env,
          KIROKU_DATA_DIR: dataDir,
          PORT: String(port),
          KIROKU_SMTP_PORT: String(smtpPort),
          POWERTOOLS_LOG_LEVEL: 'INFO',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = collect(npm);
      await waitFor(() => output.text.includes('Kiroku is listening on'), 60_000);
      expect(await processesOf(dataDir)).not.toEqual([]);
      // Its SMTP server takes a mail and keeps it under the data directory.
      expect(output.text).toContain(`Mail is received on smtp://127.0.0.1:${smtpPort}`);
      const transport = createTransport({ host: '127.0.0.1', port: smtpPort, secure: false });
      await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: '件名', text: '本文' });
      transport.close();
      const kept = (await readdir(join(dataDir, 'mail'))).filter((name) => name.endsWith('.json'));
      expect(kept).toHaveLength(1);
      expect(JSON.parse(await readFile(join(dataDir, 'mail', kept[0] as string), 'utf8'))).toMatchObject({
        Subject: '件名',
        To: ['b@example.com'],
      });

      npm.kill(signal);
      await waitFor(
        async () =>
          (await processesOf(dataDir)).length === 0 &&
          !(await listening(port)) &&
          !(await listening(smtpPort)),
        20_000,
      );

      // npm's own banner (`> kiroku@… start`) and warnings are npm's; every line of the service is JSON.
      const serviceLines = output.text
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith('>') && !line.startsWith('npm '));
      expect(serviceLines.length).toBeGreaterThan(0);
      for (const line of serviceLines) expect(() => JSON.parse(line), line).not.toThrow();
    },
    90_000,
  );
});

describe('scripts/start.ts without Java', () => {
  it('says in one JSON line which package to install, exits 1, and writes no data directory', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'kiroku-start-'));
    directories.push(parent);
    const dataDir = join(parent, 'data');
    // Only the pinned Node's own directory on PATH: no java anywhere.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...process.env,
        PATH: dirname(process.execPath),
        POWERTOOLS_LOG_LEVEL: 'INFO',
        PORT: '0',
        KIROKU_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collect(child);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const lines = output.text.split('\n').filter((line) => line.trim() !== '');
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string).message).toBe(
      'Java is not installed; DynamoDB Local needs it: apt-get install openjdk-17-jre-headless',
    );
    expect(existsSync(dataDir)).toBe(false);
  }, 30_000);
});

function collect(child: ChildProcess): { text: string } {
  const output = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.text += chunk.toString();
  });
  return output;
}

/** The processes whose command line names the data directory: the service's node and its JVM. */
async function processesOf(dataDir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (cmdline.includes(dataDir) || environ.includes(`KIROKU_DATA_DIR=${dataDir}`)) pids.push(Number(entry));
  }
  return pids.filter((pid) => pid !== process.pid);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
