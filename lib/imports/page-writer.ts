import { ConcurrentChangeError } from '../errors';
import type { ItemRecord } from '../items/model';
import { type RecordWrite, recordsByKeys, writeRecords } from '../items/record-repository';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';

/**
 * Writes a staged page of an import so that doing it again writes nothing twice: every create is
 * conditional on its id (fixed at staging) not existing and every update on the record's Ver as staged,
 * in transactions that apply whole. A page an earlier attempt wrote in part fails on its first written
 * transaction; the records then show which writes are in (their Ver and time are the staged ones), and
 * only the others are written. A record that someone else changed since staging fails the page.
 */
export async function writePage(site: Site, writes: readonly RecordWrite[]): Promise<void> {
  try {
    await writeRecords(site, writes);
    return;
  } catch (error) {
    if (!(error instanceof ConcurrentChangeError)) throw error;
  }
  const current = new Map(
    (await recordsByKeys(writes.map(({ after }) => itemKeys.item(after.tenantId, after.recordId)))).map(
      (record) => [record.recordId, record],
    ),
  );
  const pending = writes.filter(({ after }) => !written(current.get(after.recordId), after));
  for (const { before, after } of pending) {
    const stored = current.get(after.recordId);
    if (before ? stored?.ver !== before.ver : stored !== undefined)
      throw new ConcurrentChangeError(`record ${after.recordId} changed since the import was staged`);
  }
  await writeRecords(site, pending);
}

function written(stored: ItemRecord | undefined, after: ItemRecord): boolean {
  return stored !== undefined && stored.ver === after.ver && stored.updatedAt === after.updatedAt;
}
