import { useState } from 'preact/hooks';
import { type ChoiceEntry, parseChoicesText } from '../../../lib/columns/choices';
import type { Column } from '../../../lib/columns/model';
import { type ChildSite, readableTables } from '../api';
import { definedValue, type Edited, setProperty } from '../design';
import { t } from '../i18n';
import { Field } from './common';

/**
 * A text or number setting that keeps what is typed: the entry may drop an emptied property (it falls
 * back to the definition), which must not refill the field under the user's cursor. `replace` changes
 * when the value is set from elsewhere, and the field then shows `initial` again.
 */
function Setting({
  id,
  label,
  initial,
  onValue,
  type = 'text',
  multiline,
  extra = {},
  replace = 0,
}: {
  id: string;
  label: string;
  initial: string;
  onValue: (value: string) => void;
  type?: 'text' | 'number';
  multiline?: boolean;
  extra?: Record<string, unknown>;
  replace?: number;
}) {
  const [value, setValue] = useState(initial);
  const [seen, setSeen] = useState(replace);
  if (seen !== replace) {
    setSeen(replace);
    setValue(initial);
  }
  const change = (next: string) => {
    setValue(next);
    onValue(next);
  };
  return (
    <Field id={id} label={label}>
      {multiline ? (
        <textarea id={id} value={value} onInput={(e) => change(e.currentTarget.value)} {...extra} />
      ) : (
        <input
          id={id}
          type={type as 'text'}
          value={value}
          onInput={(e) => change(e.currentTarget.value)}
          {...extra}
        />
      )}
    </Field>
  );
}

/**
 * One column's settings (CONTRACT 11): label, choices with a live preview and their problems, a link
 * target picked by site name, default, required, number limits and format, max length, description,
 * no-duplication, regex validation, hide, read-only. What is shown depends on the column's kind; what is
 * written is only what differs from the definition (design.ts setProperty).
 */
export function ColumnEditor({
  column,
  defined,
  entry,
  onChange,
}: {
  /** The column as the site's entry makes it now. */
  column: Column;
  /** The column as its definition alone makes it. */
  defined: Column;
  entry: Record<string, unknown>;
  onChange: (entry: Record<string, unknown>) => void;
}) {
  const words = t();
  const name = column.columnName;
  const id = (property: string) => `column-${name}-${property}`;
  const set = (property: Edited, value: string | boolean) =>
    onChange(setProperty(entry, defined, property, value));
  const text = (property: Edited): string => {
    const value = entry[property] ?? definedValue(defined, property);
    return value === undefined || value === null ? '' : String(value);
  };
  const flag = (property: Edited): boolean => (entry[property] ?? definedValue(defined, property)) === true;
  const kind = column.kind;
  // The choices as typed (the preview follows them) and a count of replacements made by the link helper.
  const [choices, setChoices] = useState(() => text('ChoicesText'));
  const [choicesReplaced, setChoicesReplaced] = useState(0);
  const fixed = kind === 'id' || kind === 'version' || kind === 'comments' || kind === 'titleBody';
  const hasChoices = (kind === 'text' && column.family === 'Class') || kind === 'status';
  const isNumber = kind === 'number';
  const isText = kind === 'text' || kind === 'description';
  // The server fills the record's people and times, and computes the remaining work.
  const computed = ['Creator', 'Updator', 'CreatedTime', 'UpdatedTime', 'RemainingWorkValue'].includes(name);
  const takesDefault = !fixed && !computed && kind !== 'attachments' && kind !== 'description';

  const input = (property: Edited, label: string, type: 'text' | 'number' = 'text', extra = {}) => (
    <Setting
      key={property}
      id={id(property)}
      label={label}
      type={type}
      initial={text(property)}
      onValue={(value) => set(property, value)}
      extra={extra}
    />
  );
  const choose = (property: Edited, label: string, options: readonly (readonly [string, string])[]) => (
    <Field id={id(property)} label={label}>
      <select id={id(property)} value={text(property)} onChange={(e) => set(property, e.currentTarget.value)}>
        {options.map(([value, shown]) => (
          <option key={value} value={value}>
            {shown}
          </option>
        ))}
      </select>
    </Field>
  );
  const check = (property: Edited, label: string) => (
    <label class="check">
      <input
        type="checkbox"
        checked={flag(property)}
        onChange={(e) => set(property, e.currentTarget.checked)}
      />
      {label}
    </label>
  );

  return (
    <div class="column-editor">
      <h3>
        {column.labelText} <span class="muted">{name}</span>
      </h3>
      {input('LabelText', words.label, 'text', { placeholder: defined.labelText })}
      {hasChoices && (
        <>
          <Setting
            id={id('ChoicesText')}
            label={words.choices}
            multiline
            initial={choices}
            onValue={(value) => {
              setChoices(value);
              set('ChoicesText', value);
            }}
            extra={{ 'aria-describedby': `${id('ChoicesText')}-help`, class: 'code', rows: 5 }}
            replace={choicesReplaced}
          />
          <p id={`${id('ChoicesText')}-help`} class="muted help">
            {words.choicesHelp}
          </p>
          {kind === 'text' && (
            <LinkHelper
              id={id('link')}
              onPick={(site) => {
                const next = `${choices}${choices && !choices.endsWith('\n') ? '\n' : ''}[[${site.SiteId}]]`;
                setChoices(next);
                setChoicesReplaced((n) => n + 1);
                set('ChoicesText', next);
              }}
            />
          )}
          <ChoicesPreview id={id('preview')} choicesText={choices} />
          {kind === 'text' && (
            <div class="checks">{check('MultipleSelections', words.multipleSelections)}</div>
          )}
        </>
      )}
      {takesDefault &&
        input('DefaultInput', kind === 'date' ? words.defaultDays : words.defaultInput, 'text')}
      {isNumber && (
        <div class="columns">
          {input('Min', words.min, 'number', { step: 'any' })}
          {input('Max', words.max, 'number', { step: 'any' })}
          {input('Step', words.step, 'number', { step: 'any', min: 0 })}
          {input('DecimalPlaces', words.decimalPlaces, 'number', { min: 0, max: 4, step: 1 })}
          {input('Unit', words.unit)}
          {choose('RoundingType', words.roundingType, [
            ['10', words.roundAwayFromZero],
            ['20', words.roundCeiling],
            ['30', words.roundTruncate],
            ['40', words.roundFloor],
            ['50', words.roundToEven],
          ])}
          <div class="field">{check('Nullable', words.nullable)}</div>
        </div>
      )}
      {kind === 'date' &&
        choose('EditorFormat', words.dateFormat, [
          ['Ymd', words.formatDate],
          ['Ymdhm', words.formatMinutes],
          ['Ymdhms', words.formatSeconds],
        ])}
      {isText && input('MaxLength', words.maxLength, 'number', { min: 1, step: 1 })}
      <Setting
        id={id('Description')}
        label={words.description}
        multiline
        initial={text('Description')}
        onValue={(value) => set('Description', value)}
        extra={{ rows: 2 }}
      />
      {(isText || isNumber) && !computed && (
        <div class="columns">
          {input('ServerRegexValidation', words.regex, 'text', { class: 'code' })}
          {input('RegexValidationMessage', words.regexMessage)}
        </div>
      )}
      {(isText || isNumber || kind === 'date') && !computed && (
        <div class="columns">
          <div class="field">{check('NoDuplication', words.noDuplication)}</div>
          {flag('NoDuplication') && input('MessageWhenDuplicated', words.duplicatedMessage)}
        </div>
      )}
      <div class="checks">
        {!fixed && !computed && check('ValidateRequired', words.required)}
        {!fixed && !computed && check('EditorReadOnly', words.readOnly)}
        {check('Hide', words.hide)}
      </div>
    </div>
  );
}

/** The choices as the form will offer them, parsed as the server parses them, with what it drops. */
export function ChoicesPreview({ id, choicesText }: { id: string; choicesText: string }) {
  const words = t();
  const parsed = parseChoicesText(choicesText);
  const describe = (entry: ChoiceEntry): string => {
    switch (entry.kind) {
      case 'static':
        return entry.value === entry.text ? entry.text : `${entry.text} (${entry.value})`;
      case 'users':
        return entry.scope === 'site' ? words.sourceUsers : words.sourceAllUsers;
      case 'groups':
        return entry.scope === 'site' ? words.sourceGroups : words.sourceAllGroups;
      case 'depts':
        return words.sourceDepts;
      case 'timeZones':
        return words.sourceTimeZones;
      case 'link':
        return entry.siteId !== undefined
          ? `${words.sourceLink} #${entry.siteId}`
          : `${words.sourceLink} ${entry.tableName ?? ''}`;
    }
  };
  return (
    <div class="choices-preview" id={id} aria-live="polite">
      <h4>{words.preview}</h4>
      {parsed.entries.length === 0 ? (
        <p class="muted">{words.noChoices}</p>
      ) : (
        <ul>
          {parsed.entries.map((entry, index) => (
            <li key={index}>{describe(entry)}</li>
          ))}
        </ul>
      )}
      {parsed.problems.length > 0 && (
        <ul class="problems">
          {parsed.problems.map((problem, index) => (
            <li key={index}>
              {problem.line > 0 ? `${words.line} ${problem.line}: ` : ''}
              {problem.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Finds a table by its title or SiteName and adds `[[siteId]]`, a link to its records, to the choices. */
function LinkHelper({ id, onPick }: { id: string; onPick: (site: ChildSite) => void }) {
  const words = t();
  const [query, setQuery] = useState('');
  const [sites, setSites] = useState<ChildSite[]>();
  const [failure, setFailure] = useState<string>();
  const [chosen, setChosen] = useState('');
  const load = () => {
    if (sites) return;
    readableTables().then(setSites, (error: Error) => setFailure(error.message));
  };
  const needle = query.trim().toLowerCase();
  const matches = (sites ?? []).filter(
    (site) =>
      !needle ||
      site.Title.toLowerCase().includes(needle) ||
      (site.SiteName ?? '').toLowerCase().includes(needle),
  );
  const picked = matches.find((site) => String(site.SiteId) === chosen) ?? matches[0];
  return (
    <div class="link-helper">
      <Field id={`${id}-search`} label={words.linkToSite}>
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          onFocus={load}
          onInput={(e) => {
            load();
            setQuery(e.currentTarget.value);
          }}
        />
      </Field>
      {failure && <p class="error">{failure}</p>}
      {sites && (
        <div class="inline-controls">
          <label for={`${id}-site`} class="visually-hidden">
            {words.site}
          </label>
          <select
            id={`${id}-site`}
            value={picked ? String(picked.SiteId) : ''}
            onChange={(e) => setChosen(e.currentTarget.value)}
          >
            {matches.map((site) => (
              <option key={site.SiteId} value={String(site.SiteId)}>
                {site.Title} #{site.SiteId}
              </option>
            ))}
          </select>
          <button type="button" disabled={!picked} onClick={() => picked && onPick(picked)}>
            {words.addLink}
          </button>
        </div>
      )}
    </div>
  );
}
