import { settings } from '../config/settings';
import { ForbiddenError } from '../errors';
import type { User } from './model';
import type { Principal } from './principal';

/**
 * Privileged users (CONTRACT section 5). A login id listed in Security.PrivilegedUsers makes its user
 * privileged only when a privileged caller gave it (or the first start did), so that a tenant manager
 * cannot make themselves or anyone else privileged by naming a user `Administrator`. Login ids are
 * compared without case, as they are unique without case.
 */

export function isPrivilegedLoginId(loginId: string): boolean {
  const wanted = loginId.toLowerCase();
  return settings().Security.PrivilegedUsers.some((listed) => listed.toLowerCase() === wanted);
}

export function isPrivilegedUser(user: Pick<User, 'loginId' | 'privilegeGranted'>): boolean {
  return user.privilegeGranted === true && isPrivilegedLoginId(user.loginId);
}

/** Who gives a login id: a caller, or the first start, which creates the administrator. */
export type Giver = Principal | 'firstStart';

/** Whether `loginId`, given by `giver`, makes its user privileged; a non-privileged giver of one: 403. */
export function grantsPrivilege(giver: Giver, loginId: string): boolean {
  if (!isPrivilegedLoginId(loginId)) return false;
  if (giver === 'firstStart' || giver.privileged) return true;
  throw new ForbiddenError(`user ${giver.userId} may not give the privileged login id ${loginId}`);
}

/** A manager who is not privileged manages no privileged user (disable, rename, delete, password, keys). */
export function requireMayManage(principal: Principal, target: User): void {
  if (principal.userId === target.userId || principal.privileged || !isPrivilegedUser(target)) return;
  throw new ForbiddenError(`user ${principal.userId} may not manage the privileged user ${target.userId}`);
}
