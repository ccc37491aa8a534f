import type { Language } from '../columns/definitions';
import { settings } from '../config/settings';
import type { Principal } from './principal';

/**
 * The language a caller reads labels and dates in (CONTRACT 11): the user's Language, else
 * Service.DefaultLanguage (`ja`, as the reference). API messages stay English whatever it is (CONTRACT 1).
 */
export function callerLanguage(principal: Pick<Principal, 'language'>): Language {
  return principal.language ?? settings().Service.DefaultLanguage;
}
