import { ApiFailure, post } from './api';
import { followUser } from './i18n';

/**
 * Who is logged in, as the server says (CONTRACT section 10). The login cookie is HttpOnly and may come from
 * elsewhere (an HTML form post, another tab, the API), so the page asks `api/users/current` when it opens
 * and after a login, and learns of a login ended elsewhere from the 401 of any later call. Nothing kept in
 * browser storage decides it.
 */

export interface SignedIn {
  readonly userId: number;
  readonly loginId: string;
  readonly name: string;
}

interface UserRow {
  readonly UserId: number;
  readonly LoginId: string;
  readonly Name: string;
  readonly Language?: string;
}

/** undefined: not known yet (the question is on its way); null: nobody is logged in. */
let current: SignedIn | null | undefined;
const listeners = new Set<() => void>();

export function currentUser(): SignedIn | null | undefined {
  return current;
}

export function onSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function settle(user: SignedIn | null): void {
  current = user;
  for (const listener of listeners) listener();
}

/** Asks the server whose login the browser's cookie is; a 401 is nobody's. Other failures are thrown. */
export async function askServer(): Promise<SignedIn | null> {
  try {
    const answer = await post<{ Response: { Data: UserRow[] } }>('api/users/current');
    const row = answer.Response.Data[0];
    followUser(row?.Language);
    settle(row ? { userId: row.UserId, loginId: row.LoginId, name: row.Name } : null);
  } catch (failure) {
    if (!(failure instanceof ApiFailure && failure.statusCode === 401)) throw failure;
    settle(null);
  }
  return current ?? null;
}

/** The server refused the login cookie (a 401), or the user signed out. */
export function signedOut(): void {
  settle(null);
}
