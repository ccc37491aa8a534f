import iconv from 'iconv-lite';
import { callerZone } from '../../accounts/caller-zone';
import { now } from '../../clock';
import { instantOf, startOfDay } from '../../zoned-time';
import type { HostCallTable, ScriptCallContext } from '../host-calls';

/**
 * The `utilities` members that need the host (reference/pleasanter-script-objects.md 5): the dates that
 * depend on the user's time zone, answered as epoch ms, and the encodings the sandbox does not have. The
 * pure ones are in lib/scripts/globals/utilities.ts.
 */

/** The reference's General.MinTime and MaxTime (Parameters/General.json: 1900/1/1 and 2100/1/1). */
const MIN_TIME = { year: 1900, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 };
const MAX_TIME = { ...MIN_TIME, year: 2100 };

export function utilityCalls(context: ScriptCallContext): HostCallTable {
  const zone = () => callerZone(context.principal);
  return {
    'utilities.Today': async () => startOfDay(now(), zone()),
    'utilities.MinTime': async () => instantOf(MIN_TIME, zone()),
    'utilities.MaxTime': async () => instantOf(MAX_TIME, zone()),
    'utilities.ConvertToBase64String': async (value, encoding) => {
      const name = String(encoding);
      if (!iconv.encodingExists(name)) return { error: `Encoding "${name}" is not known` };
      return { value: iconv.encode(String(value ?? ''), name).toString('base64') };
    },
  };
}
