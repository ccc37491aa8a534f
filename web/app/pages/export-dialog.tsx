import { useEffect, useRef, useState } from 'preact/hooks';
import { describe, url } from '../api';
import { language, t } from '../i18n';
import { defaultEncoding, followTask, startExport, type Task } from '../tasks';
import { Notice } from './common';
import { Bar, Dialog, EncodingChoice, useLive } from './transfer-parts';

/**
 * Export: the records the grid shows (its View: search, filter, sort) to a CSV file in the chosen encoding,
 * as a background task; when it ends, a link to the file (through /binaries/{guid}/download) takes the focus.
 */
export function ExportDialog({
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
