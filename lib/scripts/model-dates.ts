/**
 * The `model`/`saved` fields that are dates (lib/scripts/script-model.ts): ISO text on the host's side, JS
 * Dates in the sandbox (lib/scripts/prelude.ts), as the reference's scripts get .NET DateTimes. Alone in
 * its module so that the script worker's bundle, which carries the prelude, carries nothing else.
 */
export const DATE_FIELDS = /^(StartTime|CompletionTime|CreatedTime|UpdatedTime|Date[A-Z])$/;
