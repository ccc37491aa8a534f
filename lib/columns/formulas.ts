import type { ReferenceType } from './definitions';
import { round } from './display';
import { type Column, columnsOf } from './model';

/**
 * `SiteSettings.Formulas` (the reference's FormulaSet and Formula, CalculationMethod Default): each
 * formula computes a numeric Target on every create and update, in order, each seeing the results of
 * the ones before it. A formula is a tree: a node is a column (`ColumnName`) or a constant (`RawValue`),
 * followed by children that each carry an operator; `×` and `÷` bind to the additive child before them.
 * As the reference: a column that is no numeric column reads as 0, so does an empty one; a division by
 * zero gives 0; the result is rounded by the Target's DecimalPlaces and RoundingType. A `Condition` names
 * a View of the site's `Views` by Id: a record it does not select takes `OutOfCondition`, or keeps its
 * Target when there is none; a Condition naming no View applies the formula always (the reference's
 * `Views.Get` finds nothing). The Extended method (`FormulaScript`, a JavaScript-like text) is not
 * available: such a formula cannot be applied, and a write it would run is refused naming it.
 */

export const Operator = { NotSet: 0, Addition: 1, Subtraction: 2, Multiplication: 3, Division: 4 } as const;
type OperatorType = (typeof Operator)[keyof typeof Operator];

export interface FormulaNode {
  readonly columnName?: string;
  readonly rawValue?: number;
  readonly operator: OperatorType;
  readonly children: readonly FormulaNode[];
}

export interface FormulaSet {
  /** Where it stands in `Formulas`, for messages. */
  readonly index: number;
  readonly id?: number;
  readonly target: string;
  readonly condition?: number;
  readonly formula?: FormulaNode;
  readonly outOfCondition?: FormulaNode;
}

export interface FormulaProblem {
  /** `Formulas[0] (Id 1, Target NumA)`: which formula. */
  readonly formula: string;
  readonly reason: string;
  /** `error`: it cannot be applied (a write that runs it is refused); `warning`: applied as the reference. */
  readonly severity: 'error' | 'warning';
}

export interface ParsedFormulas {
  readonly sets: readonly FormulaSet[];
  readonly problems: readonly FormulaProblem[];
}

const MAX_DEPTH = 32;
const MAX_NODES = 1000;
const OPERATOR_NAMES = Object.keys(Operator) as (keyof typeof Operator)[];

/** The numeric columns a formula reads: the Num family, and Issues' work columns. */
export function isFormulaColumn(column: Column | undefined): column is Column {
  return column?.kind === 'number';
}

/** The columns a formula may write: the numeric ones but RemainingWorkValue, which is computed. */
export function isFormulaTarget(column: Column | undefined): column is Column {
  return isFormulaColumn(column) && column.columnName !== 'RemainingWorkValue';
}

/** The formulas of a site's settings, with what is wrong with them. */
export function parseFormulas(siteSettings: Readonly<Record<string, unknown>>): ParsedFormulas {
  const list = siteSettings.Formulas;
  if (list === undefined || list === null) return { sets: [], problems: [] };
  if (!Array.isArray(list)) {
    return { sets: [], problems: [{ formula: 'Formulas', reason: 'must be a list', severity: 'error' }] };
  }
  const sets: FormulaSet[] = [];
  const problems: FormulaProblem[] = [];
  for (const [index, entry] of (list as unknown[]).entries()) {
    const name = nameOf(entry, index);
    const problem = checkedSet(entry);
    if (typeof problem === 'string') {
      problems.push({ formula: name, reason: problem, severity: 'error' });
      continue;
    }
    sets.push({ index, ...problem });
  }
  return { sets, problems };
}

/** A FormulaSet's parts, or what is wrong with it. */
function checkedSet(entry: unknown): Omit<FormulaSet, 'index'> | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'is not an object';
  const set = entry as Record<string, unknown>;
  const method = set.CalculationMethod;
  if (method !== undefined && method !== null && method !== '' && method !== 'Default')
    return `the calculation method ${JSON.stringify(method)} (FormulaScript) is not available`;
  if (typeof set.Target !== 'string' || set.Target === '') return 'has no Target';
  const counter = { nodes: 0 };
  const formula = nodeOf(set.Formula, 'Formula', 0, counter);
  if (typeof formula === 'string') return formula;
  const outOfCondition = nodeOf(set.OutOfCondition, 'OutOfCondition', 0, counter);
  if (typeof outOfCondition === 'string') return outOfCondition;
  const condition = set.Condition;
  if (condition !== undefined && condition !== null && !Number.isInteger(condition))
    return 'Condition must be the Id of a View';
  return {
    ...(typeof set.Id === 'number' && { id: set.Id }),
    target: set.Target,
    ...(typeof condition === 'number' && { condition }),
    ...(formula && { formula }),
    ...(outOfCondition && { outOfCondition }),
  };
}

function nameOf(entry: unknown, index: number): string {
  const set = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const parts = [
    ...(set.Id !== undefined ? [`Id ${JSON.stringify(set.Id)}`] : []),
    ...(typeof set.Target === 'string' ? [`Target ${set.Target}`] : []),
  ];
  return `Formulas[${index}]${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/** A node of the tree, undefined when absent, or what is wrong with it. */
function nodeOf(
  value: unknown,
  path: string,
  depth: number,
  counter: { nodes: number },
): FormulaNode | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return `${path} is not an object`;
  if (depth > MAX_DEPTH) return `${path} is nested deeper than ${MAX_DEPTH} levels`;
  if (++counter.nodes > MAX_NODES) return `the formula has more than ${MAX_NODES} parts`;
  const node = value as Record<string, unknown>;
  const operator = operatorOf(node.OperatorType);
  if (operator === undefined) return `${path}.OperatorType ${JSON.stringify(node.OperatorType)} is not known`;
  const raw = node.RawValue;
  if (raw !== undefined && raw !== null && (typeof raw !== 'number' || !Number.isFinite(raw)))
    return `${path}.RawValue must be a number`;
  if (node.ColumnName !== undefined && node.ColumnName !== null && typeof node.ColumnName !== 'string')
    return `${path}.ColumnName must be a text`;
  const children: FormulaNode[] = [];
  const given = node.Children ?? [];
  if (!Array.isArray(given)) return `${path}.Children must be a list`;
  for (const [index, child] of given.entries()) {
    const parsed = nodeOf(child, `${path}.Children[${index}]`, depth + 1, counter);
    if (typeof parsed === 'string') return parsed;
    if (!parsed) return `${path}.Children[${index}] is empty`;
    // The reference multiplies or divides the additive term before it, and fails when there is none.
    const multiplies = parsed.operator === Operator.Multiplication || parsed.operator === Operator.Division;
    const termBefore = children.some(
      (other) => other.operator !== Operator.Multiplication && other.operator !== Operator.Division,
    );
    if (multiplies && !termBefore) return `${path}.Children[${index}] multiplies or divides nothing`;
    children.push(parsed);
  }
  return {
    ...(typeof node.ColumnName === 'string' && { columnName: node.ColumnName }),
    ...(typeof raw === 'number' && { rawValue: raw }),
    operator,
    children,
  };
}

/** An OperatorType as Newtonsoft.Json reads the enum: its number or its name. */
function operatorOf(value: unknown): OperatorType | undefined {
  if (value === undefined || value === null) return Operator.NotSet;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 4)
    return value as OperatorType;
  if (typeof value === 'string') {
    const name = OPERATOR_NAMES.find((known) => known.toLowerCase() === value.toLowerCase());
    return name ? Operator[name] : undefined;
  }
  return undefined;
}

/**
 * `Formula.GetResult`: the node's own value, then its children, the `×`/`÷` ones applied to the additive
 * child before them, then the additive ones added or subtracted. `read` gives a numeric column's value
 * (0 when empty) and undefined for any other name, which then reads the node's RawValue, else 0.
 */
export function evaluate(node: FormulaNode, read: (columnName: string) => number | undefined): number {
  let result = (node.columnName === undefined ? undefined : read(node.columnName)) ?? node.rawValue ?? 0;
  const terms: { operator: OperatorType; value: number }[] = [];
  for (const child of node.children) {
    const value = evaluate(child, read);
    const last = terms.at(-1);
    if (child.operator === Operator.Multiplication && last) last.value *= value;
    else if (child.operator === Operator.Division && last) last.value = value !== 0 ? last.value / value : 0;
    else terms.push({ operator: child.operator, value });
  }
  for (const term of terms) result += term.operator === Operator.Subtraction ? -term.value : term.value;
  return result;
}

/** A formula's result for its Target column: rounded by the column's DecimalPlaces and RoundingType. */
export function formulaResult(
  node: FormulaNode | undefined,
  target: Column,
  read: (columnName: string) => number | undefined,
): number {
  return round(node ? evaluate(node, read) : 0, target.decimalPlaces, target.roundingType);
}

/**
 * What is wrong with a site's formulas, for site saving: errors (a formula that cannot be applied) and
 * warnings (applied as the reference applies it, which is likely not what was meant).
 */
export function checkFormulas(
  siteSettings: Readonly<Record<string, unknown>>,
  referenceType: ReferenceType = siteSettings.ReferenceType as ReferenceType,
): FormulaProblem[] {
  const { sets, problems } = parseFormulas(siteSettings);
  const columns = columnsOf(referenceType, siteSettings.Columns as unknown[] | undefined, 'en').byName;
  const views = new Set(
    (Array.isArray(siteSettings.Views) ? siteSettings.Views : []).map(
      (view: unknown) => (view as { Id?: unknown } | null)?.Id,
    ),
  );
  const found = [...problems];
  for (const set of sets) {
    const name = nameOf({ Id: set.id, Target: set.target }, set.index);
    if (!isFormulaTarget(columns.get(set.target)))
      found.push({ formula: name, reason: `Target ${set.target} is no numeric column`, severity: 'error' });
    if (set.condition !== undefined && !views.has(set.condition))
      found.push({
        formula: name,
        reason: `Condition ${set.condition} names no View of Views; the formula applies to every record`,
        severity: 'warning',
      });
    for (const columnName of columnNames(set)) {
      if (!isFormulaColumn(columns.get(columnName)))
        found.push({
          formula: name,
          reason: `${columnName} is no numeric column and reads as 0`,
          severity: 'warning',
        });
    }
  }
  return found;
}

function columnNames(set: FormulaSet): Set<string> {
  const names = new Set<string>();
  const walk = (node: FormulaNode | undefined) => {
    if (!node) return;
    if (node.columnName !== undefined) names.add(node.columnName);
    node.children.forEach(walk);
  };
  walk(set.formula);
  walk(set.outOfCondition);
  return names;
}

/** The name a problem or a refused write gives a formula. */
export function formulaName(set: FormulaSet): string {
  return nameOf({ Id: set.id, Target: set.target }, set.index);
}
