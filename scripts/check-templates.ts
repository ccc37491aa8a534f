import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startGateway } from '../local/gateway';
import { startS3Local } from '../local/s3-local';
import { checkTemplate, poster, readTemplates, type TemplateOutcome } from './template-check';

/**
 * `npm run check:templates -- <folder>`: every `TemplateNN_SiteSettingsTemplate.json` of the folder (the
 * reference's `App_Data/Definitions/Definition_Template`, or test/fixtures/site-templates) through
 * createsite and getsite on a service of its own (DynamoDB Local in memory, s3rver in a temporary
 * directory, the local gateway, as `npm start` runs them), each checked by its round trip
 * (scripts/template-check.ts). Prints the accepted and refused counts with the reasons; exits 1 if any is
 * refused.
 */

const CONCURRENCY = 4;

async function main(): Promise<number> {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: npm run check:templates -- <folder holding Template*_SiteSettingsTemplate.json>');
    return 2;
  }
  const templates = await readTemplates(resolve(folder));
  if (templates.length === 0) {
    console.error(`no Template*_SiteSettingsTemplate.json in ${folder}`);
    return 2;
  }
  const directory = await mkdtemp(join(tmpdir(), 'kiroku-templates-'));
  const [dynamodb, s3] = await Promise.all([
    startDynamoDbLocal(),
    startS3Local({ directory, buckets: ['kiroku-templates'] }),
  ]);
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_S3_ENDPOINT = s3.endpoint;
    process.env.KIROKU_BUCKET = 'kiroku-templates';
    await ensureTables({ prefix: 'kiroku-' });
    const apiKey = randomBytes(64).toString('hex');
    await bootstrapAdministrator({ apiKey });
    const gateway = await startGateway({ port: 0, basePath: '' });
    try {
      const post = poster(gateway.url);
      const outcomes: TemplateOutcome[] = [];
      for (let index = 0; index < templates.length; index += CONCURRENCY) {
        const batch = templates.slice(index, index + CONCURRENCY);
        outcomes.push(...(await Promise.all(batch.map((template) => checkTemplate(post, apiKey, template)))));
      }
      return report(outcomes);
    } finally {
      await gateway.close();
    }
  } finally {
    await Promise.allSettled([dynamodb.stop(), s3.stop()]);
    await rm(directory, { recursive: true, force: true });
  }
}

function report(outcomes: readonly TemplateOutcome[]): number {
  const refused = outcomes.filter((outcome) => !outcome.accepted);
  for (const outcome of refused) console.log(`${outcome.id}: ${outcome.reason}`);
  console.log(
    `${outcomes.length - refused.length} of ${outcomes.length} accepted, ${refused.length} refused`,
  );
  return refused.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
