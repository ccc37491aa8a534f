import { describe, expect, it } from 'vitest';
import {
  checkFormulas,
  evaluate,
  type FormulaNode,
  formulaResult,
  parseFormulas,
} from '../../../lib/columns/formulas';
import { columnsOf } from '../../../lib/columns/model';

const column = (name: string) => ({ ColumnName: name, OperatorType: 0 });
const op = (operator: number, part: Record<string, unknown>) => ({ ...part, OperatorType: operator });
const [ADD, SUB, MUL, DIV] = [1, 2, 3, 4];

/** The first formula of `Formulas`, parsed. */
function nodeOf(formula: Record<string, unknown>): FormulaNode {
  const { sets, problems } = parseFormulas({ Formulas: [{ Id: 1, Target: 'NumZ', Formula: formula }] });
  expect(problems).toEqual([]);
  const node = sets[0]?.formula;
  if (!node) throw new Error('no formula');
  return node;
}

const values: Record<string, number> = { NumA: 10, NumB: 4, NumC: 2, NumD: 0, NumE: 3 };
const read = (name: string) => (name.startsWith('Num') ? (values[name] ?? 0) : undefined);

describe('columns/formulas', () => {
  describe('evaluate', () => {
    it.each<[string, Record<string, unknown>, number]>([
      ['A + B', { Children: [column('NumA'), op(ADD, { ColumnName: 'NumB' })] }, 14],
      ['A − B', { Children: [column('NumA'), op(SUB, { ColumnName: 'NumB' })] }, 6],
      ['A × B', { Children: [column('NumA'), op(MUL, { ColumnName: 'NumB' })] }, 40],
      ['A ÷ B', { Children: [column('NumA'), op(DIV, { ColumnName: 'NumB' })] }, 2.5],
      // × and ÷ bind to the additive term before them.
      [
        'A + B × C',
        { Children: [column('NumA'), op(ADD, { ColumnName: 'NumB' }), op(MUL, { ColumnName: 'NumC' })] },
        18,
      ],
      [
        'A − B ÷ C',
        { Children: [column('NumA'), op(SUB, { ColumnName: 'NumB' }), op(DIV, { ColumnName: 'NumC' })] },
        8,
      ],
      ['A × 1.5', { Children: [column('NumA'), op(MUL, { RawValue: 1.5 })] }, 15],
      ['A ÷ 0 is 0, as the reference', { Children: [column('NumA'), op(DIV, { ColumnName: 'NumD' })] }, 0],
      ['an unknown column reads 0', { Children: [column('NumA'), op(ADD, { ColumnName: 'ClassA' })] }, 10],
      ['an unknown column reads its RawValue', { Children: [op(ADD, { ColumnName: 'X', RawValue: 5 })] }, 5],
      ['an empty Num column reads 0', { Children: [column('NumQ'), op(ADD, { RawValue: 1 })] }, 1],
      // Template 11's 主作業割合: (B + C) ÷ A × 100, a group first, then an empty term.
      [
        '(B + C) ÷ A × 100',
        {
          Children: [
            { OperatorType: 0 },
            { OperatorType: 0, Children: [column('NumB'), op(ADD, { ColumnName: 'NumC' })] },
            op(DIV, { ColumnName: 'NumA' }),
            op(MUL, { RawValue: 100 }),
          ],
        },
        60,
      ],
      // Template 16's 粗利率: C ÷ A × 100.
      [
        'C ÷ A × 100',
        { Children: [column('NumC'), op(DIV, { ColumnName: 'NumA' }), op(MUL, { RawValue: 100 })] },
        20,
      ],
      [
        'operators by name',
        { Children: [column('NumA'), { ColumnName: 'NumE', OperatorType: 'Multiplication' }] },
        30,
      ],
    ])('%s', (_name, formula, expected) => {
      expect(evaluate(nodeOf(formula), read)).toBeCloseTo(expected, 10);
    });

    it('rounds the result by the Target column', () => {
      const target = columnsOf('Results', [{ ColumnName: 'NumZ', DecimalPlaces: 1 }], 'en').byName.get(
        'NumZ',
      );
      if (!target) throw new Error('NumZ');
      const third = nodeOf({ Children: [column('NumA'), op(DIV, { ColumnName: 'NumE' })] });
      expect(formulaResult(third, target, read)).toBe(3.3);
      expect(formulaResult(undefined, target, read)).toBe(0);
    });
  });

  describe('parseFormulas', () => {
    it.each<[string, unknown, string]>([
      ['a list', { Target: 'NumA' }, 'must be a list'],
      ['no Target', [{ Id: 1, Formula: column('NumA') }], 'Formulas[0] (Id 1): has no Target'],
      [
        'a FormulaScript',
        [{ Id: 2, Target: 'NumA', CalculationMethod: 'Extended', FormulaScript: '$NumB*2' }],
        'Formulas[0] (Id 2, Target NumA): the calculation method "Extended" (FormulaScript) is not available',
      ],
      [
        'an unknown operator',
        [
          {
            Target: 'NumA',
            Formula: { Children: [column('NumB'), { ColumnName: 'NumC', OperatorType: 9 }] },
          },
        ],
        'Formulas[0] (Target NumA): Formula.Children[1].OperatorType 9 is not known',
      ],
      [
        'a × with nothing before it',
        [{ Target: 'NumA', Formula: { Children: [op(MUL, { ColumnName: 'NumC' })] } }],
        'Formulas[0] (Target NumA): Formula.Children[0] multiplies or divides nothing',
      ],
      [
        'a RawValue that is no number',
        [{ Target: 'NumA', Formula: { RawValue: 'x' } }],
        'Formulas[0] (Target NumA): Formula.RawValue must be a number',
      ],
      [
        'a Condition that is no id',
        [{ Target: 'NumA', Condition: 'x', Formula: column('NumB') }],
        'Formulas[0] (Target NumA): Condition must be the Id of a View',
      ],
    ])('refuses %s', (_name, formulas, problem) => {
      const { problems } = parseFormulas({ Formulas: formulas });
      expect(
        problems.map((found) =>
          found.formula === 'Formulas' ? `${found.reason}` : `${found.formula}: ${found.reason}`,
        ),
      ).toEqual([problem]);
    });

    it('refuses a tree nested too deep', () => {
      let formula: Record<string, unknown> = column('NumA');
      for (let depth = 0; depth < 40; depth++) formula = { Children: [formula] };
      expect(parseFormulas({ Formulas: [{ Target: 'NumA', Formula: formula }] }).problems[0]?.reason).toMatch(
        /nested deeper than 32 levels/,
      );
    });
  });

  describe('checkFormulas', () => {
    it('finds nothing wrong with the templates’ formulas', () => {
      const settings = {
        ReferenceType: 'Issues',
        Views: [{ Id: 1, Name: '標準' }],
        Formulas: [
          { Id: 1, Target: 'NumC', Formula: { Children: [column('NumA'), op(SUB, { ColumnName: 'NumB' })] } },
          { Id: 2, Target: 'NumC', Formula: { Children: [column('NumA'), op(MUL, { ColumnName: 'NumB' })] } },
          {
            Id: 3,
            Target: 'WorkValue',
            Condition: 1,
            Formula: column('NumA'),
            OutOfCondition: { RawValue: 0 },
          },
        ],
      };
      expect(checkFormulas(settings)).toEqual([]);
    });

    it('names errors and warnings', () => {
      const settings = {
        Formulas: [
          { Id: 1, Target: 'ClassA', Formula: column('NumA') },
          { Id: 2, Target: 'NumB', Condition: 5, Formula: { Children: [column('DateA')] } },
          { Id: 3, Target: 'RemainingWorkValue', Formula: column('NumA') },
        ],
      };
      expect(checkFormulas(settings, 'Results')).toEqual([
        {
          formula: 'Formulas[0] (Id 1, Target ClassA)',
          reason: 'Target ClassA is no numeric column',
          severity: 'error',
        },
        {
          formula: 'Formulas[1] (Id 2, Target NumB)',
          reason: 'Condition 5 names no View of Views; the formula applies to every record',
          severity: 'warning',
        },
        {
          formula: 'Formulas[1] (Id 2, Target NumB)',
          reason: 'DateA is no numeric column and reads as 0',
          severity: 'warning',
        },
        {
          formula: 'Formulas[2] (Id 3, Target RemainingWorkValue)',
          reason: 'Target RemainingWorkValue is no numeric column',
          severity: 'error',
        },
      ]);
    });
  });
});
