import { createHash } from 'node:crypto';
import type { Column } from '../columns/model';
import { DuplicatedValueError } from '../errors';
import { itemKeys } from '../sites/keys';
import { table } from '../sites/store';
import { batchGet } from '../storage/batch';
import type { ItemRecord } from './model';
import { guarded, type TransactItem } from './record-repository';
import { valueText } from './record-values';

/**
 * NoDuplication (CONTRACT 11), race-free where the reference's SQL check is not: a record holding a value
 * of a NoDuplication column also holds a uniqueness item beside its site, keyed by the column and a
 * digest of the value and naming the record, written in the record's own transaction on condition that
 * it is absent or already the record's. Of two concurrent writes of one value, one transaction fails its
 * condition and answers 409 (the reference's `Cannot be updated because {LabelText} is duplicated.`, or
 * the column's MessageWhenDuplicated). An update that moves the value lets the old item go, a delete lets
 * its items go, and the site's deletion removes them with everything stored beside it.
 *
 * Empty values and 0 hold nothing, as the reference skips them. Values are compared exactly (the
 * reference's SQL Server compares by its collation, usually without case). A record written before its
 * column took NoDuplication holds no item until it is written again: until then another record may take
 * its value.
 */

const PREFIX = 'UNIQUE#';

function uniqueKey(record: ItemRecord, columnName: string, text: string) {
  const digest = createHash('sha256').update(text).digest('base64url');
  return { pk: itemKeys.item(record.tenantId, record.siteId).pk, sk: `${PREFIX}${columnName}#${digest}` };
}

/** The value a NoDuplication column holds, or undefined when it holds none (empty, or 0). */
function heldText(column: Column, record: ItemRecord | undefined): string | undefined {
  if (!record) return undefined;
  const text = valueText(record, column.columnName);
  if (text === undefined || text === '') return undefined;
  if (column.kind === 'number' || column.kind === 'status' || column.kind === 'user')
    return Number(text) === 0 ? undefined : text;
  return text;
}

/**
 * The uniqueness parts of a write from `before` to `after` (a create without `before`, a delete without
 * `after`): each value `after` holds is taken (again on an update, which also finds a value another
 * record took while this one held it unclaimed), and each value `before` held that `after` does not is
 * let go, if it is the record's: one it never took (written before NoDuplication) stays the other's.
 */
export async function uniquenessWrites(
  columns: readonly Column[],
  before: ItemRecord | undefined,
  after: ItemRecord | undefined,
): Promise<TransactItem[]> {
  const items: TransactItem[] = [];
  const released: { pk: string; sk: string }[] = [];
  for (const column of columns) {
    if (!column.noDuplication) continue;
    const old = heldText(column, before);
    const held = heldText(column, after);
    if (after && held !== undefined) {
      items.push(
        guarded(
          {
            Put: {
              TableName: table(),
              Item: { ...uniqueKey(after, column.columnName, held), RecordId: after.recordId },
              ConditionExpression: 'attribute_not_exists(pk) OR RecordId = :id',
              ExpressionAttributeValues: { ':id': after.recordId },
            },
          },
          () => new DuplicatedValueError(column.labelText, column.messageWhenDuplicated),
        ),
      );
    }
    if (before && old !== undefined && old !== held) released.push(uniqueKey(before, column.columnName, old));
  }
  if (before && released.length > 0) {
    const others = new Set(
      (await batchGet(table(), released, { consistent: true }))
        .filter((item) => item.RecordId !== before.recordId)
        .map((item) => String(item.sk)),
    );
    for (const key of released) {
      if (others.has(key.sk)) continue;
      items.push({
        Delete: {
          TableName: table(),
          Key: key,
          // Absent is fine (a bulk write may take it in an earlier transaction of the same request);
          // another record's since it was read fails the write, which is then tried again.
          ConditionExpression: 'attribute_not_exists(pk) OR RecordId = :id',
          ExpressionAttributeValues: { ':id': before.recordId },
        },
      });
    }
  }
  return items;
}

/**
 * Writes of a bulk request that take one value twice: the second is refused before anything is written,
 * as its transaction would fail only after the first one's was.
 */
export function requireDistinctValues(columns: readonly Column[], records: readonly ItemRecord[]): void {
  for (const column of columns) {
    if (!column.noDuplication) continue;
    const holders = new Map<string, number>();
    for (const record of records) {
      const held = heldText(column, record);
      if (held === undefined) continue;
      const holder = holders.get(held);
      if (holder !== undefined && holder !== record.recordId)
        throw new DuplicatedValueError(column.labelText, column.messageWhenDuplicated);
      holders.set(held, record.recordId);
    }
  }
}
