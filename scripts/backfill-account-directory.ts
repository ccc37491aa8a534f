import { ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DirectoryKind } from '../lib/accounts/keys';
import { directoryEntry } from '../lib/accounts/repository';
import { dynamo } from '../lib/storage/clients';
import { isConditionFailure } from '../lib/storage/conditions';
import { tableName } from '../lib/storage/tables';

/**
 * One-off migration for Accounts tables written before the tenants' directories (lib/accounts/keys.ts):
 * gives every user, group and dept its entry, so that users|groups|depts/get list it. Each entry is written
 * with a check that its account still exists, so an account deleted meanwhile gets none. Safe to run again.
 * It scans the table, which no request path may do:
 * `KIROKU_TABLE_ACCOUNTS=<table> KIROKU_DYNAMODB_ENDPOINT=<endpoint> node --import tsx scripts/backfill-account-directory.ts`
 */

const table = tableName('accounts');
const kinds: Record<string, { kind: DirectoryKind; id: string }> = {
  USER: { kind: 'USER', id: 'UserId' },
  GROUP: { kind: 'GROUP', id: 'GroupId' },
  DEPT: { kind: 'DEPT', id: 'DeptId' },
};
let written = 0;
let gone = 0;
let start: Record<string, unknown> | undefined;
do {
  const page = await dynamo().send(
    new ScanCommand({
      TableName: table,
      FilterExpression: 'sk IN (:user, :group, :dept)',
      ExpressionAttributeValues: { ':user': 'USER', ':group': 'GROUP', ':dept': 'DEPT' },
      ExclusiveStartKey: start,
    }),
  );
  for (const item of page.Items ?? []) {
    const { kind, id } = kinds[String(item.sk)] as { kind: DirectoryKind; id: string };
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: table,
                Key: { pk: item.pk, sk: item.sk },
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            directoryEntry(Number(item.TenantId), kind, Number(item[id])),
          ],
        }),
      );
      written++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      gone++;
    }
  }
  start = page.LastEvaluatedKey;
} while (start);
console.log(`${written} directory entries written, ${gone} accounts gone meanwhile`);
