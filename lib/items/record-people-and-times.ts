import { UnsupportedInputError } from '../errors';
import type { Site } from '../sites/model';
import { parseDateTime, startOfDay } from '../zoned-time';
import type { ItemRecord } from './model';
import { columnsOf } from './view/columns';

/**
 * Manager, Owner and the Issues fields (StartTime, CompletionTime, WorkValue, ProgressRate) of a write
 * (reference/pleasanter-items-api.md 4). A CompletionTime shown as a date (the default Ymd format) is
 * stored one day later, as the reference stores it, so that "due on the 20th" means "before the 21st".
 */

export interface PeopleAndTimesInput {
  readonly Manager?: number;
  readonly Owner?: number;
  readonly StartTime?: string | null;
  readonly CompletionTime?: string | null;
  readonly WorkValue?: number | null;
  readonly ProgressRate?: number | null;
}

type Fields = Pick<
  ItemRecord,
  'manager' | 'owner' | 'startTime' | 'completionTime' | 'workValue' | 'progressRate'
>;

const issuesOnly = ['StartTime', 'CompletionTime', 'WorkValue', 'ProgressRate'] as const;

export function peopleAndTimes(
  site: Site,
  input: PeopleAndTimesInput,
  zone: string,
  before?: ItemRecord,
): Fields {
  if (site.referenceType !== 'Issues') {
    const given = issuesOnly.find((name) => input[name] !== undefined && input[name] !== null);
    if (given) throw new UnsupportedInputError(`${given}: a ${site.referenceType} site has no ${given}.`);
  }
  const dateOnly = columnsOf(site).get('CompletionTime')?.dateOnly ?? true;
  const time = (name: 'StartTime' | 'CompletionTime', stored: number | undefined) => {
    const value = input[name];
    if (value === undefined) return stored;
    if (value === null || value === '') return undefined;
    const instant = parseDateTime(value, zone);
    if (instant === undefined)
      throw new UnsupportedInputError(`${name}: ${JSON.stringify(value)} is not a date.`);
    if (name !== 'CompletionTime' || !dateOnly) return instant;
    return startOfDay(instant, zone, 1) + (instant - startOfDay(instant, zone));
  };
  const number = (value: number | null | undefined, stored: number | undefined) =>
    value === undefined ? stored : (value ?? undefined);
  return {
    manager: input.Manager ?? before?.manager,
    owner: input.Owner ?? before?.owner,
    startTime: time('StartTime', before?.startTime),
    completionTime: time('CompletionTime', before?.completionTime),
    workValue: number(input.WorkValue, before?.workValue),
    progressRate: number(input.ProgressRate, before?.progressRate),
  };
}

/** The CompletionTime stored for one a caller gives: a date-only one a day later (as peopleAndTimes stores it). */
export function storedCompletionTime(site: Site, given: number, zone: string): number {
  const dateOnly = columnsOf(site).get('CompletionTime')?.dateOnly ?? true;
  return dateOnly ? startOfDay(given, zone, 1) + (given - startOfDay(given, zone)) : given;
}

/** The CompletionTime a caller sees: a date-only one a day back from what is stored. */
export function shownCompletionTime(site: Site, stored: number, zone: string): number {
  const dateOnly = columnsOf(site).get('CompletionTime')?.dateOnly ?? true;
  return dateOnly ? startOfDay(stored, zone, -1) + (stored - startOfDay(stored, zone)) : stored;
}
