/**
 * `utilities` (reference/pleasanter-script-objects.md 5). Today, MinTime and MaxTime are midnights in the
 * user's time zone (Today's, 1900-01-01's and 2100-01-01's, the reference's General.MinTime and MaxTime),
 * as Dates, from the host (lib/scripts/calls/utilities.ts); so is ConvertToBase64String, which encodes
 * with iconv-lite. InRange and EmptyTime need nothing: InRange is true only for a valid Date between
 * 1900-01-01T00:00Z and 2100-01-01T00:00Z inclusive (the reference compares the instant with the raw
 * parameters), EmptyTime is .NET's DateTime.MinValue, 0001-01-01T00:00Z. A part of the prelude
 * (lib/scripts/prelude.ts), in its scope.
 */
export const UTILITIES = `{
  const UtilityDate = Date, UtilityError = Error, getTime = Date.prototype.getTime;
  const IN_RANGE_MIN = UtilityDate.UTC(1900, 0, 1), IN_RANGE_MAX = UtilityDate.UTC(2100, 0, 1);
  const EMPTY_TIME = -62135596800000;
  const date = (name) => new UtilityDate(call(name));
  member('utilities', 'Today', () => date('utilities.Today'));
  member('utilities', 'MinTime', () => date('utilities.MinTime'));
  member('utilities', 'MaxTime', () => date('utilities.MaxTime'));
  member('utilities', 'EmptyTime', () => new UtilityDate(EMPTY_TIME));
  member('utilities', 'InRange', (value) => {
    if (!(value instanceof UtilityDate)) return false;
    const at = getTime.call(value);
    return at >= IN_RANGE_MIN && at <= IN_RANGE_MAX;
  });
  member('utilities', 'ConvertToBase64String', (value, encoding) => {
    const answer = call('utilities.ConvertToBase64String', text(value),
      encoding === undefined || encoding === null ? 'utf-8' : text(encoding));
    if (answer.error !== undefined) throw new UtilityError('utilities.ConvertToBase64String: ' + answer.error);
    return answer.value;
  });
}`;
