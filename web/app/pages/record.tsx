import { useEffect, useState } from 'preact/hooks';
import type { Column } from '../../../lib/columns/model';
import { useAccounts } from '../accounts';
import { ApiFailure, describe, getSite, post, type RecordData, recordId, type Site } from '../api';
import { designOf, SECTION, sectionLabel } from '../design';
import { t } from '../i18n';
import { pageContext, runBrowserScripts } from '../p';
import {
  type FormValue,
  initialValue,
  refusedColumn,
  remainingWork,
  requestFields,
  validate,
} from '../record-values';
import { currentUser } from '../session';
import { invalidFields, Loading, Notice, useLoad } from './common';
import { RecordField } from './record-field';
import { RecordHistory } from './record-history';

/**
 * The record form, as the table's design places it (EditorColumnHash, else EditorColumns, else the
 * reference's defaults): each placed column with its label, unit, description and required marker, a
 * dropdown for choices, searchable pickers for links and users, sections as headings, read-only columns
 * shown and hidden ones left out. Required, Min and Max are checked here with the reference's messages
 * before sending (the API does not check them); the API's own refusals (409, 422) come back in words.
 */

interface CommandButton {
  readonly Label?: string;
  readonly QueryString?: string;
}

export function RecordPage({ id, siteId }: { id?: number; siteId?: number }) {
  const [loaded, error] = useLoad(async () => {
    if (id === undefined) return { site: await getSite(siteId as number), record: undefined };
    const answer = await post<{ Response: { Data: RecordData[] } }>(`api/items/${id}/get`, {
      ApiVersion: 1.1,
    });
    const record = answer.Response.Data[0];
    if (!record) throw new Error(t().notFound);
    return { site: await getSite(record.SiteId), record };
  }, [id, siteId]);
  useEffect(() => {
    if (!loaded) return;
    pageContext.siteId = loaded.site.SiteId;
    pageContext.id = id ?? 0;
    runBrowserScripts(loaded.site.SiteSettings.Scripts, (message) => console.error(message));
  }, [loaded, id]);
  if (error) return <Notice error={error} />;
  if (!loaded) return <Loading />;
  return <RecordForm site={loaded.site} record={loaded.record} />;
}

type Placed = { section: string } | { column: Column };

/** The editor's entries in order (every tab, General first), without hidden and unknown columns. */
function placed(site: Site): { entries: Placed[]; columns: Column[] } {
  const design = designOf(site);
  const entries: Placed[] = [];
  const columns: Column[] = [];
  design.tabs.forEach((tab, index) => {
    if (index > 0) entries.push({ section: tab.label });
    for (const name of tab.names) {
      if (SECTION.test(name)) {
        entries.push({ section: sectionLabel(design.sections, name) });
        continue;
      }
      const column = design.columns.byName.get(name);
      if (!column || column.hide || columns.includes(column)) continue;
      entries.push({ column });
      columns.push(column);
    }
  });
  return { entries, columns };
}

function RecordForm({ site, record }: { site: Site; record: RecordData | undefined }) {
  const words = t();
  // The tenant's accounts name users, groups and depts; until they come the pickers still search.
  const accounts = useAccounts();
  const { entries, columns } = placed(site);
  const id = record ? recordId(record) : 0;
  const userId = currentUser()?.userId ?? 0;
  const [values, setValues] = useState<Record<string, FormValue>>(() => {
    const initial: Record<string, FormValue> = { Locked: record?.Locked === true };
    for (const column of columns) initial[column.columnName] = initialValue(column, record, userId);
    return initial;
  });
  const [error, setError] = useState<string>();
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (name: string, value: FormValue) => setValues((current) => ({ ...current, [name]: value }));

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setNote(undefined);
    const found = validate(columns, values);
    setProblems(found);
    if (found.size > 0) {
      setError(words.validationError);
      const first = columns.find((column) => found.has(column.columnName));
      document.getElementById(`field-${first?.columnName}`)?.focus();
      return;
    }
    setBusy(true);
    const body = {
      ApiVersion: 1.1,
      ...requestFields(columns, values, record),
      Locked: values.Locked === true,
    };
    try {
      const answer = record
        ? await post(`api/items/${id}/update`, body)
        : await post(`api/items/${site.SiteId}/create`, body);
      if (!record) location.hash = `#/items/${answer.Id}`;
      else {
        setNote(String(answer.Message ?? words.saved));
        set('Comments', '');
      }
    } catch (failure) {
      setError(describe(failure));
      // The API names the field of a 400 (its Errors); a 409 or 422 carries the column's message only.
      if (failure instanceof ApiFailure) {
        const named = [...invalidFields(failure)].filter(Boolean);
        const refused = refusedColumn(columns, failure.statusCode, failure.message);
        if (refused) named.push(refused);
        setProblems(new Map(named.map((name) => [name, failure.message])));
      }
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

  const buttons = Array.isArray(site.SiteSettings.CommandButtons)
    ? (site.SiteSettings.CommandButtons as CommandButton[])
    : [];
  return (
    <>
      <nav aria-label="breadcrumb" class="breadcrumb">
        <a href={`#/sites/${site.SiteId}`}>{site.Title}</a>
      </nav>
      <h1>{record ? String(record.ItemTitle ?? record.Title ?? id) : words.newRecord}</h1>
      <form class="record card" onSubmit={save} noValidate>
        <div class="form-fields">
          {entries.map((entry, index) =>
            'section' in entry ? (
              <h2 key={`section-${index}`} class="form-section">
                {entry.section}
              </h2>
            ) : (
              <RecordField
                key={entry.column.columnName}
                column={entry.column}
                value={
                  entry.column.columnName === 'RemainingWorkValue'
                    ? remainingWork(values)
                    : (values[entry.column.columnName] ?? '')
                }
                onChange={(value) => set(entry.column.columnName, value)}
                error={problems.get(entry.column.columnName)}
                siteId={site.SiteId}
                accounts={accounts}
                isNew={!record}
              />
            ),
          )}
        </div>
        {!columns.some((column) => column.columnName === 'Locked') && (
          <div class="checks">
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
      {record && <RecordHistory id={id} columns={columns} accounts={accounts} />}
    </>
  );
}
