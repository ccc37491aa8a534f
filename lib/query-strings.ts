/**
 * The reference's QueryStrings (CONTRACT section 8): the raw query split on `&`, then on `=`, URL-decoded
 * (UTF-8, `+` is a space); `a=b=c` gives `b`; the first key that matches case-insensitively wins; a missing
 * key or one without a value gives "". The server-script object `context.QueryStrings` will read the same.
 */
export function queryData(raw: string | undefined, key: string): string {
  const wanted = key.toLowerCase();
  for (const pair of (raw ?? '').split('&')) {
    const [name = '', value = ''] = pair.split('=');
    if (decode(name).toLowerCase() === wanted) return decode(value);
  }
  return '';
}

/** True only for `1`, `-1`, `true` and `on`, trimmed, in any case. */
export function queryBool(raw: string | undefined, key: string): boolean {
  return ['1', '-1', 'true', 'on'].includes(queryData(raw, key).trim().toLowerCase());
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
