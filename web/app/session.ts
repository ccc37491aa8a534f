/** Who is logged in, as this browser remembers it; the login cookie itself is the server's (HttpOnly). */

export interface SignedIn {
  readonly userId: number;
  readonly loginId: string;
}

const KEY = 'kiroku.user';

export function currentUser(): SignedIn | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as SignedIn | null;
    return value && Number.isSafeInteger(value.userId) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function rememberUser(user: SignedIn): void {
  localStorage.setItem(KEY, JSON.stringify(user));
}

export function forgetUser(): void {
  localStorage.removeItem(KEY);
}
