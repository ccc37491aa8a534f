import { useState } from 'preact/hooks';
import { columnsOf } from '../../../lib/columns/model';
import {
  type DesignState,
  definedColumn,
  editorCandidates,
  gridCandidates,
  SECTION,
  type TableType,
} from '../design';
import { language, t } from '../i18n';
import { ColumnEditor } from './column-editor';
import { ColumnList } from './column-lists';
import { Field } from './common';

/**
 * The table design part of the site settings: a column chosen from every column of the table (each
 * family A–Z included) and edited, the editor's column list with its sections, and the grid's column list.
 */
export function TableDesign({
  type,
  state,
  onChange,
}: {
  type: TableType;
  state: DesignState;
  onChange: (state: DesignState) => void;
}) {
  const words = t();
  const resolved = columnsOf(type, state.entries, language());
  // Every column can be labelled; the grid-only and computed ones are not placed in the editor.
  const all = gridCandidates(type);
  const placeable = editorCandidates(type);
  const [selected, setSelected] = useState(() => all.find((name) => name === 'Title') ?? all[0] ?? '');
  const labelOf = (name: string) => {
    const section = SECTION.exec(name);
    if (section) {
      const found = state.sections.find((entry) => entry.Id === Number(section[1]));
      return found?.LabelText || `${words.section} ${section[1]}`;
    }
    return resolved.byName.get(name)?.labelText ?? name;
  };
  const column = resolved.byName.get(selected);
  const defined = definedColumn(type, selected);
  const entry = state.entries.find((item) => item.ColumnName === selected) ?? { ColumnName: selected };
  const setEntry = (next: Record<string, unknown>) => {
    const others = state.entries.filter((item) => item.ColumnName !== selected);
    const at = state.entries.findIndex((item) => item.ColumnName === selected);
    const entries = [...others];
    entries.splice(at < 0 ? entries.length : at, 0, next);
    onChange({ ...state, entries });
  };
  const addSection = () => {
    const id = Math.max(0, ...state.sections.map((section) => section.Id)) + 1;
    onChange({
      ...state,
      sections: [...state.sections, { Id: id, LabelText: `${words.section} ${id}`, Expand: true }],
      general: [...state.general, `_Section-${id}`],
    });
  };
  const sectionName = (name: string) => {
    const match = SECTION.exec(name);
    if (!match) return null;
    const id = Number(match[1]);
    const section = state.sections.find((entry) => entry.Id === id);
    return (
      <span class="section-name">
        <label for={`section-${id}`} class="visually-hidden">
          {words.sectionName}
        </label>
        <input
          id={`section-${id}`}
          value={section?.LabelText ?? ''}
          onInput={(e) => {
            const LabelText = e.currentTarget.value;
            const sections = section
              ? state.sections.map((entry) => (entry.Id === id ? { ...entry, LabelText } : entry))
              : [...state.sections, { Id: id, LabelText, Expand: true }];
            onChange({ ...state, sections });
          }}
        />
      </span>
    );
  };
  return (
    <section class="table-design" aria-labelledby="table-design-heading">
      <h2 id="table-design-heading">{words.tableDesign}</h2>
      <fieldset>
        <legend>{words.columnSettings}</legend>
        <Field id="design-column" label={words.columnToEdit}>
          <select id="design-column" value={selected} onChange={(e) => setSelected(e.currentTarget.value)}>
            {all.map((name) => (
              <option key={name} value={name}>
                {labelOf(name)} ({name})
              </option>
            ))}
          </select>
        </Field>
        {column && defined && (
          <ColumnEditor key={selected} column={column} defined={defined} entry={entry} onChange={setEntry} />
        )}
      </fieldset>
      <ColumnList
        id="editor-columns"
        legend={words.editorColumns}
        items={state.general}
        labelOf={labelOf}
        candidates={placeable}
        onChange={(general) => onChange({ ...state, general })}
        extra={sectionName}
        actions={
          <button type="button" onClick={addSection}>
            {words.addSection}
          </button>
        }
      />
      <ColumnList
        id="grid-columns"
        legend={words.gridColumns}
        items={state.grid}
        labelOf={labelOf}
        candidates={gridCandidates(type)}
        onChange={(grid) => onChange({ ...state, grid })}
      />
    </section>
  );
}
