/**
 * A site's notifications as the settings page edits them (CONTRACT 14, reference note 5): the stored
 * `SiteSettings.Notifications` entries, which fields each type uses, and the entry written back (the
 * fields the type ignores and the empty ones dropped, as the reference records them; properties the page
 * does not edit, such as AfterImport, kept). The deliveries are web/app/deliveries.ts.
 */

export type Notification = Record<string, unknown> & { Id: number; Type: number };

/**
 * The reference's `Notification.Types`, as lib/notifications/model.ts has them (that module reaches
 * node-only code through its mail types, which the page cannot type-check).
 */
export const NotificationType = {
  Mail: 1,
  Slack: 2,
  ChatWork: 3,
  Line: 4,
  LineGroup: 5,
  Teams: 6,
  RocketChat: 7,
  InCircle: 8,
  HttpClient: 9,
  LineWorks: 10,
} as const;

/** The types Kiroku sends, in the order the type select offers them. */
export const SENT_TYPES = [
  'Mail',
  'Slack',
  'ChatWork',
  'Teams',
  'RocketChat',
  'InCircle',
  'HttpClient',
] as const;
export type SentType = (typeof SENT_TYPES)[number];

export function typeName(type: number): string {
  const found = Object.entries(NotificationType).find(([, value]) => value === type);
  return found ? found[0] : String(type);
}

export function isSent(type: number): boolean {
  return (SENT_TYPES as readonly string[]).includes(typeName(type));
}

/** The text fields a type reads; the others are hidden and not written. */
const TEXT_FIELDS: Readonly<Record<SentType, readonly string[]>> = {
  Mail: ['Prefix', 'Subject', 'Address', 'CcAddress', 'BccAddress'],
  Slack: ['Prefix', 'Address'],
  Teams: ['Prefix', 'Address'],
  RocketChat: ['Prefix', 'Address'],
  ChatWork: ['Prefix', 'Address', 'Token'],
  InCircle: ['Prefix', 'Address', 'Token'],
  // The body is the formatted notice only, without title or prefix.
  HttpClient: ['Address', 'MethodType', 'Encoding', 'MediaType', 'Headers'],
};
const TYPED_FIELDS = [...new Set(Object.values(TEXT_FIELDS).flat())];

export function fieldsOf(type: number): readonly string[] {
  const name = typeName(type);
  return isSent(type) ? TEXT_FIELDS[name as SentType] : TYPED_FIELDS;
}

/** The reference's `MethodType`: a stored HttpClient setting without one is a GET. */
export const METHODS = [
  ['GET', 1],
  ['POST', 2],
  ['PUT', 3],
  ['DELETE', 4],
] as const;

/** The triggers the page edits; null (absent) means on, so only `false` is written. */
export const TRIGGERS = ['AfterCreate', 'AfterUpdate', 'AfterDelete'] as const;

export function notificationsOf(settings: Record<string, unknown>): Notification[] {
  const list = settings.Notifications;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (entry): entry is Notification => typeof entry === 'object' && entry !== null && !Array.isArray(entry),
  );
}

/** A new notification: the next Id, Slack (the reference's first URL type), every trigger on. */
export function newNotification(list: readonly Notification[]): Notification {
  const id = Math.max(0, ...list.map((entry) => Number(entry.Id) || 0)) + 1;
  return { Id: id, Type: NotificationType.Slack };
}

/** The entry as stored: what the type ignores, empty texts, unset conditions and `true` triggers dropped. */
export function storedNotification(entry: Notification): Notification {
  const out: Notification = { ...entry };
  const used = new Set(fieldsOf(entry.Type));
  for (const field of TYPED_FIELDS) if (!used.has(field)) delete out[field];
  for (const [key, value] of Object.entries(out)) if (value === '' || value === undefined) delete out[key];
  for (const trigger of TRIGGERS) if (out[trigger] !== false) delete out[trigger];
  if (!out.UseCustomFormat) {
    delete out.UseCustomFormat;
    delete out.Format;
  }
  if (!out.Disabled) delete out.Disabled;
  if (!Array.isArray(out.MonitorChangesColumns)) delete out.MonitorChangesColumns;
  for (const key of ['BeforeCondition', 'AfterCondition']) if (!out[key]) delete out[key];
  return out;
}

/** Whether `Headers` reads as the JSON object the reference expects (empty: none). */
export function headersProblem(headers: unknown): boolean {
  if (typeof headers !== 'string' || headers.trim() === '') return false;
  try {
    const parsed: unknown = JSON.parse(headers);
    return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
  } catch {
    return true;
  }
}

/** The notification a refusal names (`SiteSettings.Notifications[2].Address`): its index and field. */
export function namedInMessage(message: string): { index: number; field: string } | undefined {
  const match = /Notifications\[(\d+)\]\.?(\w*)/.exec(message);
  return match ? { index: Number(match[1]), field: match[2] ?? '' } : undefined;
}
