import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdministrator } from '../../lib/accounts/bootstrap';
import { logIn } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type DocBlock, lastAnswer, pageScript, shellBlocks, stepMarker } from '../fixtures/doc-examples';
import { type Stack, startStack } from '../fixtures/stack';
import { tempDir } from '../fixtures/temp-dir';

/**
 * Every example marked `<!-- runs -->` in the README, README.ja.md and docs/*.md runs as written, in
 * order, with bash against a local stack: http://127.0.0.1:3000 becomes the stack's address, and the
 * shell variables KEY and PASSWORD are its first administrator's, as a reader has them from `npm start`.
 * A step fails when a command exits non-zero, or when its answer differs from the one shown after it:
 * the StatusCode where the shown answer has one, and its Message unless that is a GUID (ids and times
 * differ from a reader's database), else the whole JSON. Each page starts with a fresh key, as one page
 * may replace it.
 */

const PASSWORD = 'correct horse battery staple';
/** A page takes a few seconds; a loaded two-core machine answers a request in seconds, not milliseconds. */
const RUN_TIMEOUT_MS = 150_000;
const pages = [
  'README.md',
  'README.ja.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const blocksOf = (page: string): DocBlock[] => shellBlocks(readFileSync(page, 'utf8'));

let stack: Stack;

beforeAll(async () => {
  // The search examples read the index that the Items stream feeds.
  stack = await startStack({ streams: true });
  const boot = await bootstrapAdministrator({ password: PASSWORD });
  if (!boot.apiKey) throw new Error('the administrator already existed');
});
afterAll(() => stack.close());

describe('the examples of the README and docs/', () => {
  it('needs jq, which the examples use to pick ids out of answers', () => {
    expect(spawnSync('jq', ['--version']).status, 'install jq: apt-get install jq').toBe(0);
  });

  it.each(pages)('%s marks every example that calls the API as one that runs', (page) => {
    const unmarked = blocksOf(page).filter((block) => !block.runs && block.code.includes('curl'));
    expect(unmarked.map((block) => `${page}:${block.line}`)).toEqual([]);
  });

  it.each(pages)(
    '%s: its examples run as written',
    async (page) => {
      const blocks = blocksOf(page);
      const steps = blocks.filter((block) => block.runs).flatMap((block) => block.steps);
      if (steps.length === 0) return;
      // Asynchronously: the gateway answering the examples runs in this process.
      // Shell variables, not exported: as a reader sets them (KEY=…), so jq and curl do not see them.
      const variables = `KEY='${await freshKey()}'\nPASSWORD='${PASSWORD}'\n`;
      const run = await runBash(variables + pageScript(blocks, stack.url), {
        cwd: tempDir('doc-examples-'),
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
      });
      const outputs = run.stdout.split(/^@@kiroku-doc-step \d+@@$/m);
      steps.forEach((step, index) => {
        const where = `${page}:${step.line}\n${step.code}\n--- printed:\n${outputs[index]}\n--- stderr:\n${run.stderr}`;
        expect(
          run.stdout.includes(stepMarker(index)),
          `stopped (${run.signal ?? `exit ${run.status}`}) at ${where}`,
        ).toBe(true);
        if (step.expected === undefined) return;
        const answer = lastAnswer(outputs[index] ?? '');
        if (isEnvelope(step.expected)) {
          expect(pick(answer), where).toEqual(pick(step.expected));
        } else {
          expect(answer, where).toEqual(step.expected);
        }
      });
      expect(run.status, run.stderr).toBe(0);
    },
    90_000,
  );
});

interface BashRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runBash(script: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<BashRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { ...options, timeout: RUN_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** A new key for the administrator, with the password, as docs/operations.md replaces a lost one. */
async function freshKey(): Promise<string> {
  const cookies = await logIn(stack.url, 'Administrator', PASSWORD);
  const created = await call(
    stack.url,
    '/api/users/1/createapikey',
    {},
    {
      cookies,
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    },
  );
  if (created.body.StatusCode !== 200) throw new Error(`createapikey: ${created.text}`);
  return String(created.body.ApiKey);
}

/** What an answer must match: its StatusCode and Message, unless the Message is a GUID (new each run). */
function pick(answer: unknown): unknown {
  if (!isEnvelope(answer)) return answer;
  const { StatusCode, Message } = answer as { StatusCode: unknown; Message?: unknown };
  return typeof Message === 'string' && /^[0-9A-F]{32}$/.test(Message)
    ? { StatusCode }
    : { StatusCode, Message };
}

function isEnvelope(value: unknown): value is { StatusCode: number } {
  return typeof value === 'object' && value !== null && 'StatusCode' in value;
}
