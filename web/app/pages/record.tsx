import { useEffect, useState } from 'preact/hooks';
import { type Account, loadAccounts } from '../accounts';
import { describe, getSite, post, type RecordData, recordId, type Site, siteColumns } from '../api';
import { t } from '../i18n';
import { pageContext, runBrowserScripts } from '../p';
import { type AttachmentEntry, Attachments } from './attachments';
import { BodyEditor } from './body-editor';
import { Field, invalidFields, Loading, Notice, useLoad } from './common';

/**
 * The record form: every field family of CONTRACT section 5 (Title, Body, Status, Manager, Owner, the
 * Issues fields, Class/Num/Date/Description/Check/Attachments columns, Locked, a comment), with the API's
 * own validation messages, and the site's command buttons.
 */

const UNSET_DATE = '1899-12-30T00:00:00';
const DEFAULT_COLUMNS = ['ClassA', 'NumA', 'DateA', 'DescriptionA', 'CheckA', 'AttachmentsA'];
const FAMILY_HASH: Record<string, string> = {
  Class: 'ClassHash',
  Num: 'NumHash',
  Date: 'DateHash',
  Description: 'DescriptionHash',
  Check: 'CheckHash',
  Attachments: 'AttachmentsHash',
};

interface ColumnDefinition {
  readonly name: string;
  readonly family: string;
  readonly label: string;
}

function columnsOf(site: Site): ColumnDefinition[] {
  const settings = siteColumns(site);
  const names = new Set(DEFAULT_COLUMNS);
  for (const column of settings) if (column.ColumnName) names.add(column.ColumnName);
  const columns: ColumnDefinition[] = [];
  for (const name of names) {
    const family = /^(Class|Num|Date|Description|Check|Attachments)[A-Z]$/.exec(name)?.[1];
    if (!family) continue;
    const label = settings.find((column) => column.ColumnName === name)?.LabelText ?? name;
    columns.push({ name, family, label });
  }
  return columns;
}

function columnValue(record: RecordData | undefined, column: ColumnDefinition): unknown {
  const hash = record?.[FAMILY_HASH[column.family] as string] as Record<string, unknown> | undefined;
  return hash?.[column.name] ?? record?.[column.name];
}

/** `yyyy-MM-ddTHH:mm:ss` (the caller's zone) → the value of a datetime-local input, '' when unset. */
function toInput(value: unknown): string {
  if (typeof value !== 'string' || value.startsWith('1899-12-30')) return '';
  return value.slice(0, 16);
}

function fromInput(value: string): string {
  return value ? `${value.length === 16 ? `${value}:00` : value}` : UNSET_DATE;
}

interface CommandButton {
  readonly Label?: string;
  readonly QueryString?: string;
}

export function RecordPage({ id, siteId }: { id?: number; siteId?: number }) {
  const [loaded, error] = useLoad(async () => {
    // The tenant's users for Manager and Owner, read beside the record; without them the ids are typed.
    const users = loadAccounts().then(
      (accounts) => accounts.User,
      () => undefined,
    );
    if (id === undefined) {
      const [site, choices] = await Promise.all([getSite(siteId as number), users]);
      return { site, record: undefined, users: choices };
    }
    const answer = await post<{ Response: { Data: RecordData[] } }>(`api/items/${id}/get`, {
      ApiVersion: 1.1,
    });
    const record = answer.Response.Data[0];
    if (!record) throw new Error(t().notFound);
    const [site, choices] = await Promise.all([getSite(record.SiteId), users]);
    return { site, record, users: choices };
  }, [id, siteId]);
  useEffect(() => {
    if (!loaded) return;
    pageContext.siteId = loaded.site.SiteId;
    pageContext.id = id ?? 0;
    runBrowserScripts(loaded.site.SiteSettings.Scripts, (message) => console.error(message));
  }, [loaded, id]);
  if (error) return <Notice error={error} />;
  if (!loaded) return <Loading />;
  return <RecordForm site={loaded.site} record={loaded.record} users={loaded.users} />;
}

function RecordForm({
  site,
  record,
  users,
}: {
  site: Site;
  record: RecordData | undefined;
  users: readonly Account[] | undefined;
}) {
  const words = t();
  const columns = columnsOf(site);
  const isIssue = site.ReferenceType === 'Issues';
  const id = record ? recordId(record) : 0;
  const [values, setValues] = useState<Record<string, unknown>>(() => {
    const initial: Record<string, unknown> = {
      Title: record?.Title ?? '',
      Body: record?.Body ?? '',
      Status: record?.Status ?? 100,
      Manager: record?.Manager ?? 0,
      Owner: record?.Owner ?? 0,
      StartTime: toInput(record?.StartTime),
      CompletionTime: toInput(record?.CompletionTime),
      WorkValue: record?.WorkValue ?? 0,
      ProgressRate: record?.ProgressRate ?? 0,
      Locked: record?.Locked ?? false,
      Comment: '',
    };
    for (const column of columns) {
      const value = columnValue(record, column);
      initial[column.name] =
        column.family === 'Date'
          ? toInput(value)
          : column.family === 'Check'
            ? value === true
            : column.family === 'Attachments'
              ? ((value as AttachmentEntry[] | undefined) ?? [])
              : (value ?? '');
    }
    return initial;
  });
  const [error, setError] = useState<string>();
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (name: string, value: unknown) => setValues((current) => ({ ...current, [name]: value }));

  const body = () => {
    const request: Record<string, unknown> = {
      ApiVersion: 1.1,
      Title: values.Title,
      Body: values.Body,
      Status: Number(values.Status),
      Manager: Number(values.Manager),
      Owner: Number(values.Owner),
      Locked: values.Locked,
    };
    if (isIssue) {
      request.StartTime = fromInput(String(values.StartTime));
      request.CompletionTime = fromInput(String(values.CompletionTime));
      request.WorkValue = Number(values.WorkValue);
      request.ProgressRate = Number(values.ProgressRate);
    }
    if (values.Comment) request.Comments = values.Comment;
    for (const column of columns) {
      const hash = FAMILY_HASH[column.family] as string;
      const value = values[column.name];
      const target = (request[hash] ?? {}) as Record<string, unknown>;
      request[hash] = target;
      if (column.family === 'Date') target[column.name] = fromInput(String(value));
      else if (column.family === 'Num') {
        if (value !== '' && value !== undefined) target[column.name] = Number(value);
      } else if (column.family === 'Attachments') {
        const entries = value as AttachmentEntry[];
        // A write keeps the files it does not name, so a file taken off the list is named as deleted.
        const kept = new Set(entries.map((entry) => entry.Guid));
        const stored = (columnValue(record, column) as AttachmentEntry[] | undefined) ?? [];
        target[column.name] = [
          ...entries.map((entry) =>
            entry.Added
              ? { Guid: entry.Guid, Name: entry.Name, Added: true }
              : { Guid: entry.Guid, Name: entry.Name },
          ),
          ...stored
            .filter((entry) => !kept.has(entry.Guid))
            .map((entry) => ({ Guid: entry.Guid, Deleted: true })),
        ];
      } else target[column.name] = value;
    }
    return request;
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    try {
      const answer = record
        ? await post(`api/items/${id}/update`, body())
        : await post(`api/items/${site.SiteId}/create`, body());
      setInvalid(new Set());
      if (!record) location.hash = `#/items/${answer.Id}`;
      else {
        setNote(String(answer.Message ?? words.saved));
        set('Comment', '');
      }
    } catch (failure) {
      setError(describe(failure));
      setInvalid(invalidFields(failure));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!confirm(words.confirmDelete)) return;
    try {
      await post(`api/items/${id}/delete`);
      location.hash = `#/sites/${site.SiteId}`;
    } catch (failure) {
      setError(describe(failure));
    }
  };

  const command = async (button: CommandButton) => {
    setError(undefined);
    setNote(undefined);
    try {
      const query = (button.QueryString ?? '').replace(/^\?/, '');
      const answer = await post(`api/items/${id}/update${query ? `?${query}` : ''}`, { ApiVersion: 1.1 });
      setNote(String(answer.Message ?? ''));
    } catch (failure) {
      setError(describe(failure));
    }
  };

  const input = (name: string, label: string, type: 'text' | 'number' | 'datetime-local' = 'text') => (
    <Field id={`field-${name}`} label={label}>
      <input
        id={`field-${name}`}
        name={name}
        type={type as 'text'}
        aria-invalid={invalid.has(name) || undefined}
        value={String(values[name] ?? '')}
        onInput={(e) => set(name, e.currentTarget.value)}
      />
    </Field>
  );

  /** A user column as a choice of the tenant's users by name; 0 is nobody. */
  const userSelect = (name: string, label: string, choices: readonly Account[]) => (
    <Field id={`field-${name}`} label={label}>
      <select
        id={`field-${name}`}
        name={name}
        aria-invalid={invalid.has(name) || undefined}
        value={String(values[name] ?? 0)}
        onChange={(e) => set(name, Number(e.currentTarget.value))}
      >
        <option value="0">{words.nobody}</option>
        {!choices.some((user) => user.id === Number(values[name])) && Number(values[name]) !== 0 && (
          <option value={String(values[name])}>#{String(values[name])}</option>
        )}
        {choices.map((user) => (
          <option key={user.id} value={String(user.id)}>
            {user.name}
          </option>
        ))}
      </select>
    </Field>
  );

  const buttons = Array.isArray(site.SiteSettings.CommandButtons)
    ? (site.SiteSettings.CommandButtons as CommandButton[])
    : [];
  return (
    <>
      <nav aria-label="breadcrumb" class="breadcrumb">
        <a href={`#/sites/${site.SiteId}`}>{site.Title}</a>
      </nav>
      <h1>{record ? String(record.Title ?? id) : words.newRecord}</h1>
      <form class="record card" onSubmit={save} noValidate>
        {input('Title', words.title)}
        <BodyEditor
          id="field-Body"
          label={words.body}
          siteId={site.SiteId}
          value={String(values.Body ?? '')}
          onChange={(text) => set('Body', text)}
        />
        <div class="columns">
          {input('Status', words.status, 'number')}
          {users ? userSelect('Manager', words.manager, users) : input('Manager', words.manager, 'number')}
          {users ? userSelect('Owner', words.owner, users) : input('Owner', words.owner, 'number')}
          {isIssue && input('StartTime', words.startTime, 'datetime-local')}
          {isIssue && input('CompletionTime', words.completionTime, 'datetime-local')}
          {isIssue && input('WorkValue', words.workValue, 'number')}
          {isIssue && input('ProgressRate', words.progressRate, 'number')}
          {columns
            .filter((column) => ['Class', 'Num', 'Date'].includes(column.family))
            .map((column) =>
              input(
                column.name,
                column.label,
                column.family === 'Num' ? 'number' : column.family === 'Date' ? 'datetime-local' : 'text',
              ),
            )}
        </div>
        {columns
          .filter((column) => column.family === 'Description')
          .map((column) => (
            <BodyEditor
              key={column.name}
              id={`field-${column.name}`}
              label={column.label}
              siteId={site.SiteId}
              value={String(values[column.name] ?? '')}
              onChange={(text) => set(column.name, text)}
            />
          ))}
        <div class="checks">
          {columns
            .filter((column) => column.family === 'Check')
            .map((column) => (
              <label key={column.name} class="check">
                <input
                  type="checkbox"
                  name={column.name}
                  checked={values[column.name] === true}
                  onChange={(e) => set(column.name, e.currentTarget.checked)}
                />
                {column.label}
              </label>
            ))}
          <label class="check">
            <input
              type="checkbox"
              name="Locked"
              checked={values.Locked === true}
              onChange={(e) => set('Locked', e.currentTarget.checked)}
            />
            {words.locked}
          </label>
        </div>
        {columns
          .filter((column) => column.family === 'Attachments')
          .map((column) => (
            <Attachments
              key={column.name}
              label={column.label}
              siteId={site.SiteId}
              entries={values[column.name] as AttachmentEntry[]}
              onChange={(entries) => set(column.name, entries)}
            />
          ))}
        {record && (
          <Field id="field-Comment" label={words.comments}>
            <textarea
              id="field-Comment"
              rows={2}
              value={String(values.Comment)}
              onInput={(e) => set('Comment', e.currentTarget.value)}
            />
          </Field>
        )}
        <Notice error={error} note={note} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {record ? words.save : words.create}
          </button>
          {record &&
            buttons.map((button, index) => (
              <button type="button" key={index} class="command" onClick={() => command(button)}>
                {button.Label ?? button.QueryString}
              </button>
            ))}
          {record && (
            <button type="button" class="danger" onClick={remove}>
              {words.delete}
            </button>
          )}
        </div>
        {record && (
          <p class="muted">
            {words.updated}: {String(record.UpdatedTime ?? '')}
          </p>
        )}
      </form>
    </>
  );
}
