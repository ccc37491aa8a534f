import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { childSites, describe, Permission, type Site, url } from '../api';
import { designOf } from '../design';
import { language, t } from '../i18n';
import { defaultEncoding, type Encoding, followTask, startExport, startImport, type Task } from '../tasks';
import { CancelledError, ChunkedUpload, formatBytes, type Progress } from '../upload';
import { Field, Notice } from './common';

/**
 * A table's Export and Import buttons (CONTRACT 12) and their dialogs. Export writes the records the grid
 * shows (its search, filter and sort) to a CSV file as a background task, then offers the file; Import
 * uploads a CSV in chunks, runs the import task with a progress bar and shows its counts or its errors by
 * row. Each button shows only to a caller holding its bit (Export 32, Import 64).
 */

/**
 * The caller's permission bits on the site, as its parent's child list gives them (getsite has none of the
 * caller's own): 'loading' until that answer is in; 'unknown' when the parent cannot be read, and then the
 * buttons show and the server's refusal, if any, is the message.
 */
function useOwnPermission(site: Site): number | 'loading' | 'unknown' {
  const [bits, setBits] = useState<number | 'loading' | 'unknown'>('loading');
  useEffect(() => {
    let live = true;
    setBits('loading');
    childSites(site.ParentId).then(
      (children) =>
        live && setBits(children.find((child) => child.SiteId === site.SiteId)?.Permission ?? 'unknown'),
      () => live && setBits('unknown'),
    );
    return () => {
      live = false;
    };
  }, [site.SiteId, site.ParentId]);
  return bits;
}

export function TransferButtons({
  site,
  view,
  onImported,
}: {
  site: Site;
  view: Record<string, unknown>;
  onImported: () => void;
}) {
  const words = t();
  const bits = useOwnPermission(site);
  const [open, setOpen] = useState<'export' | 'import'>();
  const may = (bit: number) => bits === 'unknown' || (typeof bits === 'number' && (bits & bit) !== 0);
  return (
    <>
      {may(Permission.Export) && (
        <button type="button" onClick={() => setOpen('export')} aria-haspopup="dialog">
          {words.export}
        </button>
      )}
      {may(Permission.Import) && (
        <button type="button" onClick={() => setOpen('import')} aria-haspopup="dialog">
          {words.import}
        </button>
      )}
      {open === 'export' && (
        <ExportDialog siteId={site.SiteId} view={view} onClose={() => setOpen(undefined)} />
      )}
      {open === 'import' && (
        <ImportDialog
          site={site}
          onImported={onImported}
          onClose={() => {
            setOpen(undefined);
            onImported();
          }}
        />
      )}
    </>
  );
}

/** A modal dialog (the browser's own: focus kept inside, Escape closes it, focus goes back on close). */
function Dialog({
  id,
  title,
  onClose,
  children,
}: {
  id: string;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} class="transfer-dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <div class="actions">
        <button type="button" onClick={() => ref.current?.close()}>
          {t().close}
        </button>
      </div>
    </dialog>
  );
}

/** False once the component is gone: answers that come later are dropped. */
function useLive() {
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  return live;
}

function EncodingChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: Encoding;
  onChange: (next: Encoding) => void;
}) {
  const words = t();
  const options: [Encoding, string][] = [
    ['Shift-JIS', words.encodingShiftJis],
    ['UTF-8', name === 'export' ? words.encodingUtf8Bom : words.encodingUtf8],
  ];
  return (
    <fieldset>
      <legend>{words.encoding}</legend>
      <div class="checks">
        {options.map(([encoding, label]) => (
          <label class="check" key={encoding}>
            <input
              type="radio"
              name={`${name}-encoding`}
              value={encoding}
              checked={value === encoding}
              onChange={() => onChange(encoding)}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A progress bar with its words; without a total it shows as busy. */
function Bar({ label, done, total, text }: { label: string; done: number; total: number; text: string }) {
  return (
    <div class="task-progress">
      {total > 0 ? <progress max={total} value={done} aria-label={label} /> : <progress aria-label={label} />}
      <span class="muted" aria-live="polite">
        {text}
      </span>
    </div>
  );
}

function ExportDialog({
  siteId,
  view,
  onClose,
}: {
  siteId: number;
  view: Record<string, unknown>;
  onClose: () => void;
}) {
  const words = t();
  const live = useLive();
  const [encoding, setEncoding] = useState(defaultEncoding(language()));
  const [task, setTask] = useState<Task>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string>();
  const download = useRef<HTMLAnchorElement>(null);
  const ready = task?.Status === 'Completed' && task.Guid;
  useEffect(() => {
    if (ready) download.current?.focus();
  }, [ready]);
  const start = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setTask(undefined);
    setRunning(true);
    try {
      const taskId = await startExport(siteId, view, encoding);
      const end = await followTask(taskId, setTask, () => live.current);
      if (end?.Status === 'Failed') setError(end.Message ?? words.taskFailed);
    } catch (failure) {
      if (live.current) setError(describe(failure));
    } finally {
      if (live.current) setRunning(false);
    }
  };
  return (
    <Dialog id="export" title={words.export} onClose={onClose}>
      <form onSubmit={start}>
        <p class="muted">{words.exportWhat}</p>
        <EncodingChoice name="export" value={encoding} onChange={setEncoding} />
        <button type="submit" class="primary" disabled={running}>
          {words.startExport}
        </button>
      </form>
      {running && task && (
        <Bar
          label={words.exportProgress}
          done={task.Done}
          total={task.Total}
          text={task.Status === 'Queued' ? words.queued : `${words.rows}: ${task.Done} / ${task.Total}`}
        />
      )}
      <Notice error={error} />
      {ready && (
        <p role="status">
          <a
            ref={download}
            class="button primary"
            href={url(`binaries/${task.Guid}/download`)}
            download={task.FileName}
          >
            {words.download}: {task.FileName ?? 'export.csv'}
          </a>
        </p>
      )}
    </Dialog>
  );
}

type Phase = 'idle' | 'upload' | 'rows' | 'done';

/** The columns a row's record can be found by, by label: the id first, then the form's value columns. */
function keyColumns(site: Site): { name: string; label: string }[] {
  const design = designOf(site);
  const names = design.tabs.flatMap((tab) => tab.names);
  const id = design.columns.list.find((column) => column.kind === 'id');
  const keys = [...(id ? [id.columnName] : []), ...names];
  return [...new Set(keys)].flatMap((name) => {
    const column = design.columns.byName.get(name);
    return column && ['id', 'text', 'number', 'date', 'description', 'status', 'user'].includes(column.kind)
      ? [{ name, label: column.labelText }]
      : [];
  });
}

function ImportDialog({
  site,
  onImported,
  onClose,
}: {
  site: Site;
  onImported: () => void;
  onClose: () => void;
}) {
  const words = t();
  const live = useLive();
  const keys = keyColumns(site);
  const [file, setFile] = useState<File>();
  const [encoding, setEncoding] = useState(defaultEncoding(language()));
  const [updatable, setUpdatable] = useState(false);
  const [key, setKey] = useState(keys[0]?.name ?? '');
  const [phase, setPhase] = useState<Phase>('idle');
  const [sent, setSent] = useState<Progress>();
  const [task, setTask] = useState<Task>();
  const [error, setError] = useState<string>();
  const upload = useRef<ChunkedUpload | undefined>(undefined);
  useEffect(() => () => upload.current?.cancel(), []);
  const start = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setError(undefined);
    setTask(undefined);
    setSent(undefined);
    setPhase('upload');
    try {
      upload.current = new ChunkedUpload(file, site.SiteId, (progress) => live.current && setSent(progress));
      const { guid } = await upload.current.run();
      upload.current = undefined;
      if (!live.current) return;
      setPhase('rows');
      const taskId = await startImport(site.SiteId, { guid, encoding, updatable, key });
      const end = await followTask(taskId, setTask, () => live.current);
      if (!end) return;
      setPhase('done');
      if (end.Status === 'Failed') setError(end.Message ?? words.taskFailed);
      else onImported();
    } catch (failure) {
      if (!live.current || failure instanceof CancelledError) return;
      setError(describe(failure));
      setPhase('idle');
    }
  };
  const busy = phase === 'upload' || phase === 'rows';
  return (
    <Dialog id="import" title={words.import} onClose={onClose}>
      <form onSubmit={start}>
        <Field id="import-file" label={words.csvFile}>
          <input
            id="import-file"
            type="file"
            accept=".csv,.tsv,.txt,text/csv"
            required
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
          />
        </Field>
        <EncodingChoice name="import" value={encoding} onChange={setEncoding} />
        <label class="check">
          <input
            type="checkbox"
            checked={updatable}
            onChange={(e) => setUpdatable(e.currentTarget.checked)}
          />
          {words.updatableImport}
        </label>
        <Field id="import-key" label={words.keyColumn}>
          <select
            id="import-key"
            value={key}
            disabled={!updatable}
            onChange={(e) => setKey(e.currentTarget.value)}
          >
            {keys.map((column) => (
              <option key={column.name} value={column.name}>
                {column.label}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" class="primary" disabled={busy || !file}>
          {words.startImport}
        </button>
      </form>
      {phase === 'upload' && sent && (
        <Bar
          label={words.uploadProgress}
          done={sent.sent}
          total={sent.total}
          text={`${words.uploading}: ${formatBytes(sent.sent)} / ${formatBytes(sent.total)}${sent.retrying ? ` (${sent.retrying})` : ''}`}
        />
      )}
      {phase === 'rows' && (
        <Bar
          label={words.importProgress}
          done={task?.Done ?? 0}
          total={task?.Total ?? 0}
          text={
            !task || task.Status === 'Queued' ? words.queued : `${words.rows}: ${task.Done} / ${task.Total}`
          }
        />
      )}
      <Notice error={error} />
      {phase === 'done' && task?.Status === 'Completed' && (
        <p class="notice" role="status">
          {words.addedCount}: {task.Added ?? 0} · {words.updatedCount}: {task.Updated ?? 0}
        </p>
      )}
      {task?.Errors && task.Errors.length > 0 && <RowErrors errors={task.Errors} />}
    </Dialog>
  );
}

function RowErrors({ errors }: { errors: Task['Errors'] & object }) {
  const words = t();
  return (
    <div class="table-scroll">
      <table class="grid row-errors">
        <caption>{words.errorsByRow}</caption>
        <thead>
          <tr>
            <th scope="col">{words.row}</th>
            <th scope="col">{words.column}</th>
            <th scope="col">{words.message}</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((error) => (
            <tr key={`${error.Row}:${error.Column ?? ''}:${error.Message}`}>
              <td class="number">{error.Row}</td>
              <td>{error.Column ?? ''}</td>
              <td>{error.Message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
