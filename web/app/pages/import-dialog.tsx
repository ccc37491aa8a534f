import { useEffect, useRef, useState } from 'preact/hooks';
import { describe, type Site } from '../api';
import { designOf } from '../design';
import { language, t } from '../i18n';
import { defaultEncoding, followTask, startImport, type Task } from '../tasks';
import { CancelledError, ChunkedUpload, formatBytes, type Progress } from '../upload';
import { Field, Notice } from './common';
import { Bar, Dialog, EncodingChoice, useLive } from './transfer-parts';

/**
 * Import: the CSV is uploaded in chunks as an attachment is (upload.ts, resuming after a network error),
 * then the import task runs on its GUID; the page shows the upload's progress, then the rows', then the
 * counts, or the task's message and its errors by row (a refused file writes nothing).
 */

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

export function ImportDialog({
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
      {task?.Errors && task.Errors.length > 0 && <RowErrors site={site} errors={task.Errors} />}
    </Dialog>
  );
}

/** The first errors of a refused file, by row; a column named by its ColumnName shows its label. */
function RowErrors({ site, errors }: { site: Site; errors: Task['Errors'] & object }) {
  const words = t();
  const columns = designOf(site).columns.byName;
  const label = (name: string) => columns.get(name)?.labelText ?? name;
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
              <td>{error.Column ? label(error.Column) : ''}</td>
              <td>{error.Message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
