import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../i18n';

/**
 * An ordered list of column names (the editor's General tab, the grid's columns): reordered by dragging
 * an entry, or from the keyboard with its Up and Down buttons; entries added from the columns not yet
 * placed and removed. `extra` renders more controls for an entry (a section's name).
 */
export function ColumnList({
  id,
  legend,
  items,
  labelOf,
  candidates,
  onChange,
  extra,
  actions,
}: {
  id: string;
  legend: string;
  items: readonly string[];
  labelOf: (name: string) => string;
  candidates: readonly string[];
  onChange: (items: string[]) => void;
  extra?: (name: string) => ComponentChildren;
  actions?: ComponentChildren;
}) {
  const words = t();
  const [dragged, setDragged] = useState<number>();
  const [adding, setAdding] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const free = candidates.filter((name) => !items.includes(name));
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved as string);
    onChange(next);
    setAnnouncement(`${labelOf(moved as string)}: ${to + 1} / ${next.length}`);
  };
  const add = () => {
    const name = free.includes(adding) ? adding : free[0];
    if (!name) return;
    onChange([...items, name]);
    setAdding('');
  };
  return (
    <fieldset class="column-list">
      <legend>{legend}</legend>
      <ol>
        {items.map((name, index) => (
          <li
            key={name}
            draggable
            class={dragged === index ? 'dragging' : undefined}
            onDragStart={(event) => {
              setDragged(index);
              event.dataTransfer?.setData('text/plain', name);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              if (dragged !== undefined) move(dragged, index);
              setDragged(undefined);
            }}
            onDragEnd={() => setDragged(undefined)}
          >
            <span class="handle" aria-hidden="true">
              ⋮⋮
            </span>
            <span class="name">
              {labelOf(name)} <span class="muted">{name}</span>
            </span>
            {extra?.(name)}
            <span class="moves">
              <button
                type="button"
                disabled={index === 0}
                aria-label={`${words.moveUp}: ${labelOf(name)}`}
                onClick={() => move(index, index - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                disabled={index === items.length - 1}
                aria-label={`${words.moveDown}: ${labelOf(name)}`}
                onClick={() => move(index, index + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                class="link"
                aria-label={`${words.remove}: ${labelOf(name)}`}
                onClick={() => onChange(items.filter((item) => item !== name))}
              >
                {words.remove}
              </button>
            </span>
          </li>
        ))}
      </ol>
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <div class="add-column">
        <label for={`${id}-add`}>{words.addColumn}</label>
        <select
          id={`${id}-add`}
          value={free.includes(adding) ? adding : (free[0] ?? '')}
          onChange={(e) => setAdding(e.currentTarget.value)}
        >
          {free.map((name) => (
            <option key={name} value={name}>
              {labelOf(name)} ({name})
            </option>
          ))}
        </select>
        <button type="button" onClick={add} disabled={free.length === 0}>
          {words.add}
        </button>
        {actions}
      </div>
    </fieldset>
  );
}
