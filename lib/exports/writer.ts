import type { Principal } from '../accounts/principal';
import type { Language } from '../columns/definitions';
import { csvHeader, csvLine } from '../csv/csv';
import { choiceNames } from '../items/choice-names';
import type { ItemRecord } from '../items/model';
import { tableDesign } from '../items/record-design';
import type { Site } from '../sites/model';
import { type CellContext, exportCells, headerLabels, partsOf, rawOf } from './cells';
import type { ExportDefinition } from './definition';

/**
 * An export's text in pieces: its head, then its rows a page at a time (names behind ids read in one
 * batch per page), then its tail. CSV as ExportUtilities.Csv writes it (every row ends with `\n`); Json
 * as an indented `{Header: [{SiteId, SiteTitle, Columns: {name: label}}], Body: [{name: cell}…]}`.
 */
export interface ExportWriter {
  head(): string;
  /** The records' rows; `written` is how many rows came before (a Json row after the first takes a comma). */
  rows(records: readonly ItemRecord[], written: number): Promise<string>;
  tail(written: number): string;
}

export function exportWriter(
  principal: Principal,
  site: Site,
  definition: ExportDefinition,
  context: { readonly language: Language; readonly zone: string },
): ExportWriter {
  const lookups = choiceNames(principal);
  const cell: CellContext = { ...context, resolve: lookups.resolve };
  // Comment writers are users: their names are read as the Creator column's are.
  const users = tableDesign(site, context.language).columns.byName.get('Creator');
  const options = { delimiter: definition.delimiter, quote: definition.quote };
  const json = definition.type === 'json';

  const noteNames = (records: readonly ItemRecord[]) => {
    for (const plan of definition.columns) {
      if (plan.form === 'Value' && plan.column.kind !== 'comments') continue;
      for (const record of records) {
        if (plan.column.kind === 'comments') {
          for (const comment of record.comments ?? []) if (users) lookups.need(users, comment.creator);
        } else if (plan.column.choices.entries.length > 0 || plan.column.kind === 'user') {
          for (const part of partsOf(plan.column, rawOf(plan.column, record)))
            lookups.need(plan.column, part);
        }
      }
    }
  };

  return {
    head() {
      if (json) {
        const columns = Object.fromEntries(
          definition.columns.map((plan) => [plan.column.columnName, plan.label]),
        );
        const header = JSON.stringify(
          [{ SiteId: site.siteId, SiteTitle: site.title, Columns: columns }],
          null,
          2,
        );
        return `{\n  "Header": ${header.replaceAll('\n', '\n  ')},\n  "Body": [`;
      }
      if (!definition.header) return '';
      return csvHeader(definition.columns.flatMap(headerLabels), options);
    },
    async rows(records, written) {
      noteNames(records);
      await lookups.load();
      if (json) {
        return records
          .map((record, index) => {
            const row = Object.fromEntries(
              definition.columns.map((plan) => [
                plan.column.columnName,
                exportCells(plan, record, cell).join(','),
              ]),
            );
            const text = JSON.stringify(row, null, 2).replaceAll('\n', '\n    ');
            return `${written + index > 0 ? ',' : ''}\n    ${text}`;
          })
          .join('');
      }
      return records
        .map((record) =>
          csvLine(
            definition.columns.flatMap((plan) => exportCells(plan, record, cell)),
            options,
          ),
        )
        .join('');
    },
    tail(written) {
      return json ? `${written > 0 ? '\n  ' : ''}]\n}` : '';
    },
  };
}
