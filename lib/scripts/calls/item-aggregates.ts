import type { Principal } from '../../accounts/principal';
import { type Aggregate, aggregateColumn, countRecords } from '../../items/record-aggregates';
import type { RecordGetInput } from '../../items/record-get';
import { recordIdsMatching } from '../../search/query';
import { canReadColumn } from '../../sites/column-access';
import type { Site } from '../../sites/model';
import { getSite } from '../../sites/repository';
import type { HostCallTable, ScriptCallContext } from '../host-calls';
import { canRead, idOf, logRefusal, refused, scriptBody } from './script-body';

/**
 * `items.Sum/Average/Max/Min(siteId, columnName, view?)`, `MaxDate/MinDate(…)` and `Count(siteId, view?)`
 * (reference/pleasanter-script-objects.md 1): over every record the View selects, as the API's get pages
 * through them for the script's user (lib/items/record-aggregates.ts). The column aggregates need Read on
 * the site and on the column (ReadColumnAccessControls) and a column of their kind; Count counts what the
 * user may read. Every failure answers 0 (a date: null, which the script sees as 0001-01-01), and the log
 * says why. Dates cross as epoch ms.
 *
 * `view` is `{"View":{…}}` (a string, or the object). A body without `View`, or with the paging or
 * TableType of items.Get, is refused: the reference answers 0 for the first and ignores the others, and
 * an aggregate that silently covers other records than the script meant is a wrong figure.
 */
export function itemAggregateCalls(context: ScriptCallContext): HostCallTable {
  const column =
    (aggregate: Aggregate, kind: 'number' | 'date', call: string) =>
    (siteId: unknown, columnName: unknown, view: unknown) =>
      aggregateOf(
        context,
        call,
        siteId,
        view,
        kind === 'number' ? 0 : null,
        async (principal, site, input) => {
          if (typeof columnName !== 'string') return refusal('the column name is not text');
          if (!(await canRead(principal, site))) return refusal(`no Read on site ${site.siteId}`);
          if (!(await canReadColumn(principal, site, columnName))) return refusal(`no Read on ${columnName}`);
          const found = await aggregateColumn(
            principal,
            site,
            columnName,
            aggregate,
            kind,
            input.View,
            recordIdsMatching,
          );
          return found ?? (kind === 'number' ? 0 : null);
        },
      );
  return {
    'items.Sum': column('Sum', 'number', 'items.Sum'),
    'items.Average': column('Average', 'number', 'items.Average'),
    'items.Max': column('Max', 'number', 'items.Max'),
    'items.Min': column('Min', 'number', 'items.Min'),
    'items.MaxDate': column('Max', 'date', 'items.MaxDate'),
    'items.MinDate': column('Min', 'date', 'items.MinDate'),
    'items.Count': (siteId, view) =>
      aggregateOf(
        context,
        'items.Count',
        siteId,
        view,
        0,
        async (principal, site, input) =>
          (await countRecords(principal, site, input.View, recordIdsMatching)) ?? 0,
      ),
  };
}

/** A refusal the aggregate answers with its failure result, logged. */
class Refusal {
  constructor(readonly reason: string) {}
}
const refusal = (reason: string) => new Refusal(reason);

async function aggregateOf<T>(
  context: ScriptCallContext,
  call: string,
  siteId: unknown,
  view: unknown,
  failure: T,
  compute: (principal: Principal, site: Site, input: RecordGetInput) => Promise<T | Refusal>,
): Promise<T> {
  const fail = (reason: string) => {
    logRefusal(context, call, reason);
    return failure;
  };
  const known = idOf(siteId);
  if (known === undefined) return fail(`${JSON.stringify(siteId)} is not a site id`);
  const body = await scriptBody(context, view);
  if (!body.ok) return fail(body.problem);
  const extra = (['Offset', 'PageSize', 'TableType'] as const).find((name) => body.input[name] != null);
  if (extra) return fail(`${extra}: an aggregate covers every record its View selects`);
  if (view !== undefined && view !== null && view !== '' && body.input.View == null) {
    return fail('the body has no View: an aggregate takes {"View":{…}}');
  }
  const site = await getSite(body.principal.tenantId, known);
  if (!site) return fail(`no site ${known}`);
  try {
    const answer = await compute(body.principal, site, body.input);
    return answer instanceof Refusal ? fail(answer.reason) : answer;
  } catch (error) {
    return refused(context, call, failure)(error);
  }
}
