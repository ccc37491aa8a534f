import { useEffect, useState } from 'preact/hooks';
import { post } from './api';

/**
 * The tenant's users, groups and depts by name, for the pickers of the site settings (permission rows)
 * and the record form (Manager, Owner): one list read each (`/api/users/get` and the like), the first 199.
 */

export interface Account {
  readonly id: number;
  readonly name: string;
}

export interface Accounts {
  readonly User: readonly Account[];
  readonly Group: readonly Account[];
  readonly Dept: readonly Account[];
}

type Row = Record<string, unknown>;

async function list(path: string, id: string, name: (row: Row) => string): Promise<Account[]> {
  const answer = await post<{ Response: { Data: Row[] } }>(path, {
    PageSize: 199,
    View: { ColumnSorterHash: { [id]: 'asc' } },
  });
  return answer.Response.Data.map((row) => ({ id: Number(row[id]), name: name(row) }));
}

let loading: Promise<Accounts> | undefined;

/** Read once per page load; a failure is retried by the next call. */
export function loadAccounts(): Promise<Accounts> {
  loading ??= Promise.all([
    list('api/users/get', 'UserId', (row) => `${row.Name} (${row.LoginId})`),
    list('api/groups/get', 'GroupId', (row) => String(row.GroupName)),
    list('api/depts/get', 'DeptId', (row) => String(row.DeptName)),
  ]).then(
    ([User, Group, Dept]) => ({ User, Group, Dept }),
    (error) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The account lists for a page that does not wait for them: undefined until they are read (or when they
 * cannot be), then the lists; the page shows ids, and its pickers search, in the meantime.
 */
export function useAccounts(): Accounts | undefined {
  const [accounts, setAccounts] = useState<Accounts>();
  useEffect(() => {
    let live = true;
    loadAccounts().then(
      (lists) => live && setAccounts(lists),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return accounts;
}
