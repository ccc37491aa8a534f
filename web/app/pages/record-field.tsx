import type { ComponentChildren } from 'preact';
import { choiceSources, type LinkSource } from '../../../lib/columns/choices';
import { displayValue } from '../../../lib/columns/display';
import type { Column } from '../../../lib/columns/model';
import type { Accounts } from '../accounts';
import { linkedTitle } from '../grid-display';
import { language, t } from '../i18n';
import { choiceOptions, dateOnly, type FormValue, fromInput, writable } from '../record-values';
import { type AttachmentEntry, Attachments } from './attachments';
import { BodyEditor } from './body-editor';
import { FieldLabel, SearchPicker, searchRecords, searchUsers } from './pickers';

/**
 * One column of the record form, by its kind: a text or number input (with its unit), a dropdown of its
 * choices, a searchable picker for a link or a user, a date, a check box, a Markdown text, attachments,
 * or the value shown read-only. Its description and its error are tied to the control (aria-describedby).
 */
export function RecordField({
  column,
  value,
  onChange,
  error,
  siteId,
  accounts,
  isNew,
}: {
  column: Column;
  value: FormValue;
  onChange: (value: FormValue) => void;
  error?: string;
  siteId: number;
  accounts: Accounts | undefined;
  isNew: boolean;
}) {
  const name = column.columnName;
  const id = `field-${name}`;
  const label = column.labelText;
  const required = column.validateRequired && column.kind !== 'check';
  const described = [column.description && `${id}-description`, error && `${id}-error`]
    .filter(Boolean)
    .join(' ');
  const notes = (
    <>
      {column.description && (
        <small id={`${id}-description`} class="muted description">
          {column.description}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </>
  );
  const common = {
    id,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': required || undefined,
  };
  const text = typeof value === 'string' ? value : '';
  /** What every searchable picker of the field takes. */
  const picker = {
    id,
    label,
    onChange,
    invalid: Boolean(error),
    describedBy: described || undefined,
    required,
  };
  /** A searchable user picker; `empty` is the value of "no one". */
  const userPicker = (current: string, empty: string) => (
    <>
      <SearchPicker
        {...picker}
        value={current}
        empty={empty}
        search={searchUsers}
        currentText={accounts?.User.find((user) => String(user.id) === text)?.name}
      />
      {notes}
    </>
  );

  if (!writable(column)) {
    if ((column.kind === 'id' || column.kind === 'version') && isNew) return null;
    return <ReadOnly id={id} label={label} shown={shownText(column, value, accounts)} notes={notes} />;
  }
  switch (column.kind) {
    case 'description':
      return (
        <BodyEditor
          id={id}
          label={label}
          siteId={siteId}
          value={text}
          onChange={onChange}
          required={required}
          invalid={Boolean(error)}
          describedBy={described || undefined}
        >
          {notes}
        </BodyEditor>
      );
    case 'attachments':
      return (
        <div class="wide">
          <Attachments
            label={label}
            siteId={siteId}
            entries={value as AttachmentEntry[]}
            onChange={(entries) => onChange(entries)}
          />
          {notes}
        </div>
      );
    case 'check':
      return (
        <div class="field">
          <label class="check">
            <input
              type="checkbox"
              {...common}
              checked={value === true}
              onChange={(e) => onChange(e.currentTarget.checked)}
            />
            {label}
          </label>
          {notes}
        </div>
      );
    case 'comments':
      return (
        <Labelled id={id} label={label} required={false} notes={notes} wide>
          <textarea {...common} rows={2} value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Labelled>
      );
    case 'user':
      // Manager, Owner: no one is 0.
      return userPicker(text || '0', '0');
  }
  const sources = choiceSources(column.choices);
  const links = sources.filter(
    (source): source is LinkSource => source.kind === 'link' && source.siteId !== undefined,
  );
  if (links.length > 0)
    return (
      <>
        <SearchPicker
          {...picker}
          value={text}
          empty=""
          search={(query) =>
            searchRecords(
              links.map((link) => link.siteId as number),
              query,
            )
          }
          lookUp={(linked) => (/^\d+$/.test(linked) ? linkedTitle(linked) : Promise.resolve(undefined))}
        />
        {notes}
      </>
    );
  if (sources.some((source) => source.kind === 'users')) return userPicker(text, '');
  const group = sources.find((source) => source.kind === 'depts' || source.kind === 'groups');
  const options = group
    ? (accounts?.[group.kind === 'depts' ? 'Dept' : 'Group'] ?? []).map((account) => ({
        value: String(account.id),
        text: account.name,
      }))
    : column.choices.entries.length > 0
      ? choiceOptions(column, text)
      : undefined;
  if (options && column.multipleSelections) {
    // Stored as a JSON array of the chosen values (reference 3).
    const chosen = chosenValues(text);
    return (
      <Labelled id={id} label={label} required={required} notes={notes}>
        <select
          {...common}
          multiple
          size={Math.min(6, Math.max(2, options.length))}
          onChange={(e) => {
            const picked = Array.from(e.currentTarget.selectedOptions, (option) => option.value);
            onChange(picked.length > 0 ? JSON.stringify(picked) : '');
          }}
        >
          {options
            .filter((option) => !option.text.startsWith('? '))
            .map((option) => (
              <option key={option.value} value={option.value} selected={chosen.includes(option.value)}>
                {option.text}
              </option>
            ))}
        </select>
      </Labelled>
    );
  }
  if (options)
    return (
      <Labelled id={id} label={label} required={required} notes={notes}>
        <select {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)}>
          {column.kind !== 'status' && <option value="">{t().notSet}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </Labelled>
    );
  const input =
    column.kind === 'number' ? (
      <input
        {...common}
        type="number"
        value={text}
        min={column.min}
        max={column.max}
        step={column.step && column.step > 0 ? column.step : 'any'}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    ) : column.kind === 'date' ? (
      <input
        {...common}
        type={dateOnly(column) ? 'date' : 'datetime-local'}
        value={text}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    ) : (
      <input
        {...common}
        maxLength={column.maxLength}
        value={text}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  return (
    <Labelled id={id} label={label} required={required} notes={notes}>
      {column.unit ? (
        <span class="with-unit">
          {input}
          <span class="unit">{column.unit}</span>
        </span>
      ) : (
        input
      )}
    </Labelled>
  );
}

function Labelled({
  id,
  label,
  required,
  notes,
  wide,
  children,
}: {
  id: string;
  label: string;
  required: boolean;
  notes: ComponentChildren;
  wide?: boolean;
  children: ComponentChildren;
}) {
  return (
    <div class={wide ? 'field wide' : 'field'}>
      <FieldLabel id={id} label={label} required={required} />
      {children}
      {notes}
    </div>
  );
}

function ReadOnly({
  id,
  label,
  shown,
  notes,
}: {
  id: string;
  label: string;
  shown: string;
  notes: ComponentChildren;
}) {
  return (
    <div class="field read-only">
      <label for={id}>{label}</label>
      <input id={id} readOnly value={shown} />
      {notes}
    </div>
  );
}

/** A read-only column's text: its display value with the unit, user names where the page knows them. */
function shownText(column: Column, value: FormValue, accounts: Accounts | undefined): string {
  const raw = column.kind === 'date' && typeof value === 'string' && value ? fromInput(value) : value;
  const shown = displayValue(column, raw, language(), 'Text', (source, id) =>
    source.kind === 'users' ? accounts?.User.find((user) => String(user.id) === id)?.name : undefined,
  );
  return shown === null || shown === undefined ? '' : String(shown);
}

function chosenValues(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : text ? [text] : [];
  } catch {
    return text ? [text] : [];
  }
}
