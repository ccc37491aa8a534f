import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { type FormulaNode, type FormulaSet, formulaName, formulaResult } from '../columns/formulas';
import type { Column } from '../columns/model';
import { ApiError, UnsupportedInputError } from '../errors';
import type { Site } from '../sites/model';
import type { ItemRecord } from './model';
import type { TableDesign } from './record-design';
import { storedValue, withValue } from './record-values';
import { CONDITION_PROPERTIES, compileView } from './view/view';

/** The site's Formulas in order (`SetByFormula`); one that cannot be applied refuses the write, named. */
export function withFormulas(
  principal: Principal,
  site: Site,
  design: TableDesign,
  record: ItemRecord,
): ItemRecord {
  if (design.formulas.length === 0 && design.formulaErrors.size === 0) return record;
  const first = [...design.formulaErrors.values()][0];
  if (first !== undefined) throw new UnsupportedInputError(`${first}; the write cannot apply it.`);
  let next = record;
  const read = (columnName: string) => {
    const column = design.columns.byName.get(columnName);
    if (column?.kind !== 'number') return undefined;
    const value = storedValue(next, columnName);
    return typeof value === 'number' ? value : 0;
  };
  for (const set of design.formulas) {
    const node = formulaFor(principal, site, design, set, next);
    if (node === null) continue;
    const target = design.columns.byName.get(set.target) as Column;
    next = withValue(next, set.target, formulaResult(node, target, read));
  }
  return next;
}

/** The tree that applies to the record: the formula, OutOfCondition, or null when nothing is computed. */
function formulaFor(
  principal: Principal,
  site: Site,
  design: TableDesign,
  set: FormulaSet,
  record: ItemRecord,
): FormulaNode | undefined | null {
  if (set.condition === undefined) return set.formula;
  const view = design.views.find((candidate) => candidate.Id === set.condition);
  if (!view) return set.formula;
  const condition = Object.fromEntries(
    Object.entries(view).filter(([key]) => CONDITION_PROPERTIES.includes(key)),
  );
  let matched: boolean;
  try {
    const compiled = compileView(site, condition, {
      userId: principal.userId,
      zone: callerZone(principal),
      now: now(),
    });
    if (compiled.search !== undefined) throw new UnsupportedInputError('Search: full-text search');
    matched = compiled.filter(record);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const why = error instanceof UnsupportedInputError ? error.what : (error.reason ?? error.message);
    throw new UnsupportedInputError(
      `${formulaName(set)}: its Condition (View ${set.condition}) cannot be applied: ${why}`,
    );
  }
  if (matched) return set.formula;
  return set.outOfCondition ?? null;
}
