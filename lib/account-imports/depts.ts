import { createDept, updateDept } from '../accounts/depts';
import { tenantDepts } from '../accounts/directory';
import type { Dept } from '../accounts/model';
import type { Principal } from '../accounts/principal';
import { deptCreateRequest, deptUpdateRequest } from '../accounts/schemas';
import { requireManager } from '../accounts/users';
import type { CsvEncoding } from '../csv/csv';
import { type Column, csvBoolean, ImportRowError, readCsvTable } from './csv-table';
import { importedMessage } from './messages';
import { checked } from './row-input';

/**
 * `depts/import` (reference DeptUtilities.ImportByApi): one dept a row, keyed by DeptCode. A code the
 * tenant has updates that dept with what changed; a new one creates a dept. DeptCode and DeptName are
 * required columns. Every row is checked first; one invalid row is a 400 naming it, nothing written.
 */

const columns: readonly Column[] = [
  { name: 'DeptCode', labels: ['Dept code', '組織コード'] },
  { name: 'DeptName', labels: ['Dept name', '組織名'] },
  { name: 'Disabled', labels: ['Disabled', '無効'] },
];

export async function importDepts(principal: Principal, file: Uint8Array | undefined, encoding: CsvEncoding) {
  requireManager(principal);
  const table = await readCsvTable(file, encoding, columns, ['DeptCode', 'DeptName']);
  const depts = await tenantDepts(principal.tenantId);
  const seen = new Set<string>();
  const creates: ReturnType<typeof deptCreateRequest.parse>[] = [];
  const updates: { dept: Dept; input: ReturnType<typeof deptUpdateRequest.parse> }[] = [];
  for (const { row, cells } of table.rows) {
    const code = cells.get('DeptCode') ?? '';
    if (!code) throw new ImportRowError(row, 'DeptCode', 'is required');
    if (seen.has(code)) throw new ImportRowError(row, 'DeptCode', `${code} is repeated`);
    seen.add(code);
    const fields: Record<string, unknown> = { DeptCode: code, DeptName: cells.get('DeptName') ?? '' };
    const disabled = cells.get('Disabled');
    if (disabled !== undefined) fields.Disabled = csvBoolean(disabled);
    const matches = depts.filter((dept) => dept.deptCode === code);
    if (matches.length > 1) throw new ImportRowError(row, 'DeptCode', `${code} names several depts`);
    const [dept] = matches;
    if (!dept) {
      creates.push(checked(deptCreateRequest, row, fields));
      continue;
    }
    const input = checked(deptUpdateRequest, row, fields);
    if (
      input.DeptName !== dept.deptName ||
      (input.Disabled !== undefined && input.Disabled !== dept.disabled)
    ) {
      updates.push({ dept, input });
    }
  }
  for (const input of creates) await createDept(principal, input);
  for (const { dept, input } of updates) await updateDept(principal, dept.deptId, input);
  return { id: 0, message: importedMessage('Depts', creates.length, updates.length) };
}
