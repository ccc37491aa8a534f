import { t, type Words } from '../i18n';
import {
  fieldsOf,
  headersProblem,
  isSent,
  METHODS,
  type Notification,
  NotificationType,
  type SentType,
  TRIGGERS,
  typeName,
} from '../notifications';
import { ColumnList } from './column-lists';
import { Field, Notice } from './common';
import type { Refusal, View } from './notifications-editor';

/**
 * One notification's fields (reference note 5), the ones its type ignores hidden: addressing and text,
 * the HttpClient request, the custom format, the monitored columns, the two view conditions, the triggers
 * and Disabled. Each change goes straight to the page's settings.
 */

const TEXT_LABELS: Readonly<Record<string, (words: Words, type: string) => string>> = {
  Prefix: (words) => words.prefix,
  Subject: (words) => words.subject,
  Address: (words, type) => (type === 'Mail' ? words.mailTo : type === 'Teams' ? words.urls : words.url),
  CcAddress: (words) => words.mailCc,
  BccAddress: (words) => words.mailBcc,
  Token: (words) => words.token,
  Encoding: (words) => words.encoding,
  MediaType: (words) => words.mediaType,
};
const PLACEHOLDERS: Readonly<Record<string, string>> = { Encoding: 'utf-8', MediaType: 'application/json' };
const TRIGGER_LABELS = { AfterCreate: 'onCreate', AfterUpdate: 'onUpdate', AfterDelete: 'onDelete' } as const;

export function NotificationForm({
  entry,
  types,
  columns,
  labelOf,
  views,
  refusal,
  onChange,
  onDone,
}: {
  entry: Notification;
  types: readonly SentType[];
  columns: readonly string[];
  labelOf: (name: string) => string;
  views: readonly View[];
  refusal?: Refusal;
  onChange: (entry: Notification) => void;
  onDone: () => void;
}) {
  const words = t();
  const type = typeName(entry.Type);
  const fields = fieldsOf(entry.Type);
  const set = (change: Record<string, unknown>) => onChange({ ...entry, ...change });
  const text = (key: string) => (typeof entry[key] === 'string' ? (entry[key] as string) : '');
  const invalid = (key: string) => refusal?.field === key || undefined;
  const monitored = Array.isArray(entry.MonitorChangesColumns)
    ? (entry.MonitorChangesColumns as string[])
    : undefined;
  const headersWrong = fields.includes('Headers') && headersProblem(entry.Headers);
  return (
    <fieldset class="notification-form">
      <legend>
        {words.notification} #{entry.Id}
      </legend>
      <Notice error={refusal?.message} />
      <Field id="notification-Type" label={words.type}>
        <select
          id="notification-Type"
          value={String(entry.Type)}
          aria-invalid={invalid('Type')}
          onChange={(e) => set({ Type: Number(e.currentTarget.value) })}
        >
          {!isSent(entry.Type) && (
            <option value={String(entry.Type)}>
              {type} ({words.notSentType})
            </option>
          )}
          {types.map((name) => (
            <option key={name} value={String(NotificationType[name])}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      {fields
        .filter((key) => TEXT_LABELS[key])
        .map((key) => (
          <Field key={key} id={`notification-${key}`} label={TEXT_LABELS[key]?.(words, type) ?? key}>
            <input
              id={`notification-${key}`}
              value={text(key)}
              placeholder={PLACEHOLDERS[key]}
              autoComplete="off"
              aria-invalid={invalid(key)}
              onInput={(e) => set({ [key]: e.currentTarget.value })}
            />
          </Field>
        ))}
      {fields.includes('MethodType') && (
        <Field id="notification-MethodType" label={words.methodType}>
          <select
            id="notification-MethodType"
            value={String(entry.MethodType ?? 1)}
            aria-invalid={invalid('MethodType')}
            onChange={(e) => set({ MethodType: Number(e.currentTarget.value) })}
          >
            {METHODS.map(([name, value]) => (
              <option key={name} value={String(value)}>
                {name}
              </option>
            ))}
          </select>
        </Field>
      )}
      {fields.includes('Headers') && (
        <Field id="notification-Headers" label={words.headers}>
          <textarea
            id="notification-Headers"
            class="code"
            rows={3}
            value={text('Headers')}
            placeholder='{"Authorization": "Bearer …"}'
            aria-invalid={headersWrong || invalid('Headers')}
            aria-describedby={headersWrong ? 'notification-Headers-error' : undefined}
            onInput={(e) => set({ Headers: e.currentTarget.value })}
          />
          {headersWrong && (
            <p id="notification-Headers-error" class="error">
              {words.headersInvalid}
            </p>
          )}
        </Field>
      )}
      <label class="check">
        <input
          type="checkbox"
          checked={entry.UseCustomFormat === true}
          onChange={(e) => set({ UseCustomFormat: e.currentTarget.checked })}
        />
        {words.useCustomFormat}
      </label>
      {entry.UseCustomFormat === true && (
        <Field id="notification-Format" label={words.format}>
          <textarea
            id="notification-Format"
            class="code"
            rows={4}
            value={text('Format')}
            aria-invalid={invalid('Format')}
            onInput={(e) => set({ Format: e.currentTarget.value })}
          />
        </Field>
      )}
      <Monitored
        monitored={monitored}
        columns={columns}
        labelOf={labelOf}
        onChange={(list) => set({ MonitorChangesColumns: list })}
      />
      <Conditions entry={entry} views={views} invalid={invalid} set={set} />
      <fieldset>
        <legend>{words.sentOn}</legend>
        <div class="checks">
          {TRIGGERS.map((trigger) => (
            <label class="check" key={trigger}>
              <input
                type="checkbox"
                checked={entry[trigger] !== false}
                onChange={(e) => set({ [trigger]: e.currentTarget.checked })}
              />
              {words[TRIGGER_LABELS[trigger]]}
            </label>
          ))}
          <label class="check">
            <input
              type="checkbox"
              checked={entry.Disabled === true}
              onChange={(e) => set({ Disabled: e.currentTarget.checked })}
            />
            {words.disabled}
          </label>
        </div>
      </fieldset>
      <button type="button" onClick={onDone}>
        {words.done}
      </button>
    </fieldset>
  );
}

/** MonitorChangesColumns: none stored means every editor column (the reference's null). */
function Monitored({
  monitored,
  columns,
  labelOf,
  onChange,
}: {
  monitored: readonly string[] | undefined;
  columns: readonly string[];
  labelOf: (name: string) => string;
  onChange: (list: string[] | undefined) => void;
}) {
  const words = t();
  return (
    <fieldset>
      <legend>{words.monitorChanges}</legend>
      <label class="check">
        <input
          type="checkbox"
          checked={monitored === undefined}
          onChange={(e) => onChange(e.currentTarget.checked ? undefined : [])}
        />
        {words.everyEditorColumn}
      </label>
      {monitored && (
        <ColumnList
          id="notification-columns"
          legend={words.chosenColumns}
          items={monitored}
          labelOf={labelOf}
          candidates={columns}
          onChange={onChange}
        />
      )}
    </fieldset>
  );
}

function Conditions({
  entry,
  views,
  invalid,
  set,
}: {
  entry: Notification;
  views: readonly View[];
  invalid: (key: string) => true | undefined;
  set: (change: Record<string, unknown>) => void;
}) {
  const words = t();
  const viewSelect = (key: 'BeforeCondition' | 'AfterCondition', label: string) => {
    const value = Number(entry[key] ?? 0);
    return (
      <Field id={`notification-${key}`} label={label}>
        <select
          id={`notification-${key}`}
          value={String(value)}
          aria-invalid={invalid(key)}
          onChange={(e) => set({ [key]: Number(e.currentTarget.value) })}
        >
          <option value="0">{words.anyRecord}</option>
          {value !== 0 && !views.some((view) => view.Id === value) && (
            <option value={String(value)}>
              #{value} ({words.missingView})
            </option>
          )}
          {views.map((view) => (
            <option key={view.Id} value={String(view.Id)}>
              {view.Name || `#${view.Id}`}
            </option>
          ))}
        </select>
      </Field>
    );
  };
  return (
    <fieldset>
      <legend>{words.conditions}</legend>
      {viewSelect('BeforeCondition', words.beforeCondition)}
      {viewSelect('AfterCondition', words.afterCondition)}
      <Field id="notification-Expression" label={words.expression}>
        <select
          id="notification-Expression"
          value={String(entry.Expression ?? 1)}
          onChange={(e) => set({ Expression: Number(e.currentTarget.value) })}
        >
          <option value="1">{words.expressionOr}</option>
          <option value="2">{words.expressionAnd}</option>
        </select>
      </Field>
    </fieldset>
  );
}
