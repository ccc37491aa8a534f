import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { readItem } from '../lib/items/record-get';
import { createRecord, deleteRecord } from '../lib/items/records';
import { restoreItem } from '../lib/items/recycle-bin';
import { createSite } from '../lib/sites/sites';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startS3Local } from '../local/s3-local';
import { administrator } from './administrator';
import type { Verdict } from './report';
import { type Timing, timed, timing } from './stats';

/**
 * Issue 28's third figure, in process (the domain functions against DynamoDB Local and s3rver, no HTTP):
 * the restore (`restoreItem`, what `POST /api/items/{id}/restore` runs) of a record with 10 attachments
 * of 64 KiB each, deleted just before, against a plain get of a current record in the same run,
 * interleaved so that the machine's load falls on both alike. The files never leave S3, so a restore's
 * time does not grow with their bytes: it reads the bin's locator and entry, clears the TTL of the record's
 * history, and writes one transaction (the record, its counts, the bin entry's removal).
 */

export interface RecycleBinResult {
  readonly runs: number;
  readonly attachments: number;
  readonly restore: Timing;
  readonly get: Timing;
  readonly deleteToBin: Timing;
}

export async function benchRecycleBin(runs = 40, attachments = 10): Promise<RecycleBinResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 512 });
  const s3Dir = await mkdtemp(join(tmpdir(), 'kiroku-bench-bin-'));
  const s3 = await startS3Local({ directory: s3Dir, buckets: ['kiroku-bench-bin'] });
  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  process.env.KIROKU_S3_ENDPOINT = s3.endpoint;
  process.env.KIROKU_BUCKET = 'kiroku-bench-bin';
  try {
    await ensureTables({ prefix: 'bin-' });
    await bootstrapAdministrator();
    const principal = administrator;
    const site = Number(
      (
        await createSite(principal, 0, { Title: 'Bin', ReferenceType: 'Results' } as Parameters<
          typeof createSite
        >[2])
      ).id,
    );
    const bytes = Buffer.alloc(64 * 1024, 7).toString('base64');
    const withFiles = async () =>
      Number(
        (
          await createRecord(principal, site, {
            Title: 'ten files',
            AttachmentsHash: {
              AttachmentsA: Array.from({ length: attachments }, (_, n) => ({
                Name: `f${n}.bin`,
                Base64: bytes,
              })),
            },
          } as Parameters<typeof createRecord>[2])
        ).id,
      );
    const current = await withFiles();
    const restores: number[] = [];
    const gets: number[] = [];
    const deletes: number[] = [];
    for (let n = 0; n < runs + 5; n++) {
      const id = await withFiles();
      const deleted = await timed(() => deleteRecord(principal, id));
      const restored = await timed(() => restoreItem(principal, id));
      const got = await timed(() => readItem(principal, current, {}));
      // The first runs warm the modules and the connections.
      if (n < 5) continue;
      deletes.push(deleted);
      restores.push(restored);
      gets.push(got);
    }
    return { runs, attachments, restore: timing(restores), get: timing(gets), deleteToBin: timing(deletes) };
  } finally {
    await s3.stop();
    await dynamodb.stop();
    await rm(s3Dir, { recursive: true, force: true });
  }
}

export function printRecycleBin(result: RecycleBinResult): void {
  console.log('\nRecycle bin (issue 28), in process against DynamoDB Local and s3rver:');
  console.log(
    `  restore, ${result.attachments} attachments  p50 ${result.restore.p50Ms} ms  p90 ${result.restore.p90Ms} ms  (${result.runs})`,
  );
  console.log(
    `  delete into the bin      p50 ${result.deleteToBin.p50Ms} ms  p90 ${result.deleteToBin.p90Ms} ms`,
  );
  console.log(`  get of a record (base)   p50 ${result.get.p50Ms} ms  p90 ${result.get.p90Ms} ms`);
}

/** No goal is set for a restore; its figure is reported beside the get's, for scale. */
export function recycleBinVerdicts(result: RecycleBinResult): Verdict[] {
  return [
    {
      measure: `restore of a record with ${result.attachments} attachments (p50)`,
      value: `${result.restore.p50Ms} ms (get ${result.get.p50Ms} ms)`,
      goal: 'reported',
      pass: true,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchRecycleBin();
  printRecycleBin(result);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
