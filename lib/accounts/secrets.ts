import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** 128 lowercase hexadecimal characters from a cryptographic random source (CONTRACT section 1). */
export function newApiKey(): string {
  return randomBytes(64).toString('hex');
}

export function isApiKeyFormat(key: string): boolean {
  return /^[0-9a-f]{128}$/.test(key);
}

/** Login cookies are random tokens too; only their hash is stored. */
export function newLoginToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * API keys and login tokens carry 256 bits or more of randomness, so one SHA-256 is enough to make a stolen
 * table useless; a slow hash would only slow every request down.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new session GUID: 32 uppercase hexadecimal characters. */
export function newSessionGuid(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

// scrypt N=2^15, r=8, p=1: about 50 ms and 32 MiB per check, OWASP's recommended minimum.
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$<salt>$<hash>`, base64url, with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFC'), salt, KEY_LENGTH, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

/** A hash to check against when the login id does not exist, so that both cases take the same time. */
const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? DUMMY_HASH).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem };
  const actual = await scryptAsync(
    password.normalize('NFC'),
    Buffer.from(salt, 'base64url'),
    expected.length,
    options,
  );
  return stored !== undefined && timingSafeEqual(actual, expected);
}
