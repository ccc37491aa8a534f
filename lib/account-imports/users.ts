import type * as z from 'zod';
import { tenantDepts } from '../accounts/directory';
import type { User } from '../accounts/model';
import type { Principal } from '../accounts/principal';
import { isPrivilegedLoginId, isPrivilegedUser } from '../accounts/privilege';
import * as repository from '../accounts/repository';
import { userCreateRequest, userUpdateRequest } from '../accounts/schemas';
import { createUser, requireManager, updateUser, zoneFor } from '../accounts/users';
import type { CsvEncoding } from '../csv/csv';
import { type Column, csvBoolean, ImportRowError, readCsvTable } from './csv-table';
import { importedMessage } from './messages';
import { checked } from './row-input';

/**
 * `users/import` (reference UserUtilities.ImportByApi): one user a row, keyed by LoginId. A LoginId of the
 * tenant updates that user with what changed; a new one creates a user. LoginId and Name are required
 * columns. Every row is checked first, by the same schema and rules as users/create and users/update
 * (the password policy included); one invalid row is a 400 naming it, and nothing is written.
 */

const columns: readonly Column[] = [
  { name: 'LoginId', labels: ['Login ID', 'ログインID'] },
  { name: 'Name', labels: ['Name', '名前'] },
  { name: 'Password', labels: ['Password', 'パスワード'] },
  { name: 'TenantManager', labels: ['Tenant manager', 'テナント管理者'] },
  { name: 'Disabled', labels: ['Disabled', '無効'] },
  { name: 'DeptCode', labels: ['Dept code', '組織コード'] },
  { name: 'TimeZone', labels: ['Time zone', 'タイムゾーン'] },
  { name: 'Language', labels: ['Language', '言語'] },
  { name: 'MailAddresses', labels: ['Mail addresses', 'メールアドレス', 'MailAddress'] },
];

type Create = z.infer<typeof userCreateRequest>;
type Update = z.infer<typeof userUpdateRequest>;
type Planned = { row: number; create: Create } | { row: number; user: User; update: Update };

export async function importUsers(principal: Principal, file: Uint8Array | undefined, encoding: CsvEncoding) {
  requireManager(principal);
  const table = await readCsvTable(file, encoding, columns, ['LoginId', 'Name']);
  const depts = await tenantDepts(principal.tenantId);
  const seen = new Set<string>();
  const planned: Planned[] = [];
  for (const { row, cells } of table.rows) {
    const loginId = cells.get('LoginId') ?? '';
    if (seen.has(loginId.toLowerCase())) throw new ImportRowError(row, 'LoginId', `${loginId} is repeated`);
    seen.add(loginId.toLowerCase());
    if (cells.get('MailAddresses')) {
      throw new ImportRowError(row, 'MailAddresses', 'Kiroku keeps no mail addresses of users');
    }
    const existing = await userOfLoginId(principal, row, loginId);
    const fields = rowFields(row, cells, depts);
    if (typeof fields.LoginId === 'string' && isPrivilegedLoginId(fields.LoginId) && !principal.privileged) {
      throw new ImportRowError(row, 'LoginId', 'a privileged login id is given by privileged users only');
    }
    if (!existing) {
      planned.push({ row, create: checked(userCreateRequest, row, fields) });
      continue;
    }
    const update = checked(userUpdateRequest, row, changed(existing, fields));
    if (Object.keys(update).length > 0)
      planned.push({ row, user: existing, update: mayUpdate(principal, row, existing, update) });
  }
  let added = 0;
  let updated = 0;
  for (const plan of planned) {
    if ('create' in plan) {
      await createUser(principal.tenantId, plan.create, principal);
      added++;
    } else {
      await updateUser(principal, plan.user.userId, plan.update);
      updated++;
    }
  }
  return { id: 0, message: importedMessage('Users', added, updated) };
}

/** The tenant's user of this LoginId; a LoginId taken in another tenant cannot be created here. */
async function userOfLoginId(principal: Principal, row: number, loginId: string): Promise<User | undefined> {
  if (!loginId) return undefined;
  const userId = await repository.findUserIdByLoginId(loginId);
  if (userId === undefined) return undefined;
  const user = await repository.getUser(userId);
  if (user?.tenantId !== principal.tenantId)
    throw new ImportRowError(row, 'LoginId', `${loginId} is already in use`);
  return user;
}

/** The row's cells as users/create's fields: only the columns the file has, empty cells left out. */
function rowFields(
  row: number,
  cells: ReadonlyMap<string, string>,
  depts: readonly { deptId: number; deptCode: string }[],
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of ['LoginId', 'Name', 'Password', 'TimeZone', 'Language']) {
    const cell = cells.get(name);
    if (cell) fields[name] = cell;
  }
  for (const name of ['TenantManager', 'Disabled']) {
    const cell = cells.get(name);
    if (cell !== undefined) fields[name] = csvBoolean(cell);
  }
  const code = cells.get('DeptCode');
  if (code !== undefined) {
    const matches = depts.filter((dept) => dept.deptCode === code);
    if (code !== '' && matches.length !== 1) {
      throw new ImportRowError(
        row,
        'DeptCode',
        matches.length ? `${code} names several depts` : `no dept ${code}`,
      );
    }
    fields.DeptId = matches[0]?.deptId ?? 0;
  }
  return fields;
}

/** Only what differs from the stored user: an unchanged row is no update, as in the reference. */
function changed(user: User, fields: Record<string, unknown>): Record<string, unknown> {
  const stored: Record<string, unknown> = {
    LoginId: user.loginId,
    Name: user.name,
    TenantManager: user.tenantManager,
    Disabled: user.disabled,
    DeptId: user.deptId ?? 0,
    TimeZone: user.timeZone,
    Language: user.language,
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([name, value]) => {
      if (name === 'Password') return true;
      if (name === 'TimeZone') return zoneFor(value as string) !== stored.TimeZone;
      return value !== stored[name];
    }),
  );
}

/** users/update's rules, checked before the first write: what a caller may change of whom. */
function mayUpdate(principal: Principal, row: number, user: User, update: Update): Update {
  const own = principal.userId === user.userId;
  const guarded = (['LoginId', 'TenantManager', 'Disabled', 'DeptId'] as const).find(
    (name) => update[name] !== undefined,
  );
  if (own && guarded) throw new ImportRowError(row, guarded, 'a user may not change their own');
  if (!own && !principal.privileged && isPrivilegedUser(user)) {
    throw new ImportRowError(row, 'LoginId', 'a privileged user is managed by privileged users only');
  }
  return update;
}
