import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import * as z from 'zod';
import { isTimeZone } from '../zoned-time';

/**
 * The reference's Parameters (CONTRACT section 2): a JSON file named by KIROKU_PARAMETERS, each value
 * overridable by KIROKU_PARAM_<Group>_<Name>. Validated once, at start-up; a bad value stops the process
 * with a message naming the setting.
 */

const ipOrCidr = z.string().refine(isIpOrCidr, { message: 'must be an IPv4/IPv6 address or CIDR range' });

const groups = {
  Service: z.strictObject({
    Name: z
      .string()
      .regex(/^[A-Za-z0-9_]+$/)
      .default('Kiroku'),
    /** The IANA zone of dates for users and tenants without their own (CONTRACT 5.1). */
    TimeZoneDefault: z
      .string()
      .refine(isTimeZone, { message: 'must be an IANA time zone such as Asia/Tokyo' })
      .default('Asia/Tokyo'),
    /** The language of labels and dates for users without their own (CONTRACT 11), `ja` as the reference. */
    DefaultLanguage: z.enum(['ja', 'en']).default('ja'),
  }),
  Security: z.strictObject({
    MimeTypeCheckOnApi: z.boolean().default(false),
    AllowIpAddresses: z.array(ipOrCidr).default([]),
    PrivilegedUsers: z.array(z.string().min(1)).default(['Administrator']),
  }),
  Session: z.strictObject({
    RetentionPeriod: z.number().int().positive().default(1440),
    UseKeyValueStore: z.boolean().default(false),
  }),
  BackgroundTask: z.strictObject({
    Enabled: z.boolean().default(true),
    // Records per page of a search-index rebuild (the reference's lot of rows per run is 100).
    CreateSearchIndexLot: z.number().int().min(1).max(10_000).default(5_000),
  }),
  BinaryStorage: z.strictObject({
    MaxSize: z.number().positive().default(50),
    LimitQuantity: z.number().int().nonnegative().default(30),
    LimitSize: z.number().positive().default(50),
    LimitTotalSize: z.number().positive().default(1024),
  }),
  Api: z.strictObject({ LimitPerSite: z.number().int().nonnegative().default(0) }),
  Script: z.strictObject({
    ServerScript: z.boolean().default(true),
    ServerScriptTimeOut: z.number().int().positive().default(10000),
    /**
     * The hosts a script's httpClient may ask (names, `*.example.com` patterns, `*`, addresses, CIDR
     * ranges): none by default, so httpClient is off. A private address only when named, not by a pattern.
     */
    ServerScriptHttpClientAllowedHosts: z.array(z.string().min(1)).default([]),
    /** httpClient.TimeOut's default in ms; 0 waits as long as the script's time limit allows. */
    ServerScriptHttpClientTimeOut: z.number().int().min(0).max(86_400_000).default(100_000),
    /** The largest answer body an httpClient call reads; a larger one fails the call. */
    ServerScriptHttpClientMaxResponseBytes: z
      .number()
      .int()
      .min(1)
      .max(16 * 1024 * 1024)
      .default(1024 * 1024),
    /** Tenants' background (scheduled) scripts run; absent: off, as the reference's default false. */
    BackgroundServerScript: z.boolean().optional(),
  }),
  Search: z.strictObject({ CreateIndexes: z.boolean().default(true) }),
  Notification: z.strictObject({
    /** Private, loopback or link-local hosts (names or addresses) that notifications may post to (CONTRACT 14). */
    AllowedHosts: z.array(z.string().min(1)).default([]),
  }),
  Deletion: z.strictObject({
    /** Days a deleted record or site stays in the recycle bin before it expires for good (CONTRACT 15). */
    RetentionDays: z.number().int().min(1).max(3650).default(90),
  }),
  Mail: z.strictObject({
    /** SMTP outside AWS (CONTRACT 14); in AWS mail goes through SES and these are not read. */
    SmtpHost: z.string().min(1).optional(),
    SmtpPort: z.number().int().min(1).max(65_535).default(25),
    /** The sender when a mail names none (the reference's caller address, else this). */
    From: z.string().min(1).optional(),
  }),
};

/**
 * Settings are parsed once per process: zod's compiled parser (a `new Function` per object schema, built on
 * its first parse) would cost more to build than it saves.
 */
const once = { jitless: true } as const;

const settingsSchema = z.strictObject({
  Service: groups.Service.default(groups.Service.parse({}, once)),
  Security: groups.Security.default(groups.Security.parse({}, once)),
  Session: groups.Session.default(groups.Session.parse({}, once)),
  BackgroundTask: groups.BackgroundTask.default(groups.BackgroundTask.parse({}, once)),
  BinaryStorage: groups.BinaryStorage.default(groups.BinaryStorage.parse({}, once)),
  Api: groups.Api.default(groups.Api.parse({}, once)),
  Script: groups.Script.default(groups.Script.parse({}, once)),
  Search: groups.Search.default(groups.Search.parse({}, once)),
  Notification: groups.Notification.default(groups.Notification.parse({}, once)),
  Mail: groups.Mail.default(groups.Mail.parse({}, once)),
  Deletion: groups.Deletion.default(groups.Deletion.parse({}, once)),
});

export type Settings = z.infer<typeof settingsSchema>;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const OVERRIDE_PREFIX = 'KIROKU_PARAM_';

/** Reads the parameters file and the overrides from `env`, and validates the result. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const raw: Record<string, Record<string, unknown>> = {};
  const file = env.KIROKU_PARAMETERS;
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new SettingsError(`KIROKU_PARAMETERS (${file}): ${(error as Error).message}`);
    }
    if (!isRecord(parsed)) throw new SettingsError(`KIROKU_PARAMETERS (${file}): must be a JSON object`);
    for (const [group, values] of Object.entries(parsed)) {
      raw[group] = isRecord(values) ? { ...values } : (values as Record<string, unknown>);
    }
  }
  for (const [name, text] of Object.entries(env)) {
    if (!name.startsWith(OVERRIDE_PREFIX) || text === undefined) continue;
    const [group, setting, ...rest] = name.slice(OVERRIDE_PREFIX.length).split('_');
    if (!group || !setting || rest.length > 0) {
      throw new SettingsError(`${name}: expected ${OVERRIDE_PREFIX}<Group>_<Name>`);
    }
    const target = raw[group] ?? {};
    if (!isRecord(target)) throw new SettingsError(`${group}: must be a JSON object`);
    target[setting] = parseOverride(text);
    raw[group] = target;
  }
  const result = settingsSchema.safeParse(raw, once);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.join('.') || '(root)';
    const reason =
      issue?.code === 'unrecognized_keys' ? `unknown setting ${issue.keys.join(', ')}` : issue?.message;
    throw new SettingsError(`Invalid setting ${path}: ${reason}`);
  }
  return result.data;
}

/** An override is JSON when it parses as JSON (numbers, booleans, arrays), otherwise plain text. */
function parseOverride(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIpOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (!address || rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

let current: Settings | undefined;

/** The process-wide settings, loaded and validated on first use (at module load in a handler). */
export function settings(): Settings {
  current ??= loadSettings();
  return current;
}

/** Replaces the process-wide settings; used by the local runtime's tests to change a parameter live. */
export function useSettings(next: Settings | undefined): void {
  current = next;
}
