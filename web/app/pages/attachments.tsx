import { useRef, useState } from 'preact/hooks';
import { describe, url } from '../api';
import { t } from '../i18n';
import { CancelledError, ChunkedUpload, formatBytes, type Progress } from '../upload';

/** An attachment column's entry as the API answers it, and a new one (`Added`) before the record is saved. */
export interface AttachmentEntry {
  readonly Guid: string;
  readonly Name: string;
  readonly Size?: number;
  readonly Added?: boolean;
}

interface Transfer {
  readonly key: number;
  readonly file: File;
  /** The attempt under way: a new one after an error, which asks the server where to go on. */
  upload?: ChunkedUpload;
  progress: Progress;
  error?: string;
}

let nextKey = 1;

/**
 * An attachment column: drop files or choose them; each is sent in 4 MiB chunks with a progress bar (speed,
 * time left), can be cancelled, and after an error resumes where the server stands. Files uploaded here
 * join the column when the record is saved.
 */
export function Attachments({
  label,
  siteId,
  entries,
  onChange,
}: {
  label: string;
  siteId: number;
  entries: AttachmentEntry[];
  onChange: (entries: AttachmentEntry[]) => void;
}) {
  const words = t();
  const [transfers, setTransfers] = useState<Transfer[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const latest = useRef(entries);
  latest.current = entries;
  const refresh = () => setTransfers((list) => [...list]);

  /** A new attempt for the transfer: the first, or a resume after an error. */
  const start = (transfer: Transfer) => {
    const upload = new ChunkedUpload(transfer.file, siteId, (progress) => {
      transfer.progress = progress;
      refresh();
    });
    transfer.upload = upload;
    transfer.error = undefined;
    refresh();
    upload.run().then(
      (done) => {
        setTransfers((list) => list.filter((item) => item !== transfer));
        onChange([
          ...latest.current,
          { Guid: done.guid, Name: transfer.file.name, Size: transfer.file.size, Added: true },
        ]);
      },
      (error) => {
        if (error instanceof CancelledError) setTransfers((list) => list.filter((item) => item !== transfer));
        else {
          transfer.error = describe(error);
          refresh();
        }
      },
    );
  };

  const add = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const transfer: Transfer = { key: nextKey++, file, progress: { sent: 0, total: file.size, rate: 0 } };
      setTransfers((list) => [...list, transfer]);
      start(transfer);
    }
  };

  return (
    <fieldset class="attachments">
      <legend>{label}</legend>
      <ul class="files">
        {entries.map((entry) => (
          <li key={entry.Guid}>
            {entry.Added ? (
              <span>{entry.Name}</span>
            ) : (
              <a href={url(`binaries/${entry.Guid}/download`)}>{entry.Name}</a>
            )}
            {entry.Size !== undefined && <span class="muted"> {formatBytes(entry.Size)}</span>}
            <button
              type="button"
              class="link"
              aria-label={`${words.remove}: ${entry.Name}`}
              onClick={() => onChange(entries.filter((item) => item.Guid !== entry.Guid))}
            >
              {words.remove}
            </button>
          </li>
        ))}
      </ul>
      {transfers.map((transfer) => {
        const { sent, total, rate, secondsLeft, retrying } = transfer.progress;
        const percent = total ? Math.floor((sent / total) * 100) : 0;
        return (
          <div class="transfer" key={transfer.key} data-file={transfer.file.name}>
            <label>
              {transfer.file.name}
              <progress max={total || 1} value={sent} aria-label={`${transfer.file.name} ${percent}%`} />
            </label>
            <span class="muted" aria-live="polite">
              {percent}% · {formatBytes(sent)} / {formatBytes(total)}
              {rate > 0 && ` · ${formatBytes(rate)}/s`}
              {secondsLeft !== undefined && ` · ${Math.ceil(secondsLeft)} s ${words.left}`}
              {retrying && ` · ${retrying}`}
            </span>
            {transfer.error ? (
              <>
                <span class="error" role="alert">
                  {transfer.error}
                </span>
                <button type="button" onClick={() => start(transfer)}>
                  {words.resume}
                </button>
              </>
            ) : (
              <button type="button" onClick={() => transfer.upload?.cancel()}>
                {words.cancel}
              </button>
            )}
          </div>
        );
      })}
      <section
        aria-label={words.dropFiles}
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          add(event.dataTransfer?.files ?? null);
        }}
      >
        <span>{words.dropFiles}</span>
        <button type="button" onClick={() => picker.current?.click()}>
          {words.chooseFiles}
        </button>
        <input
          ref={picker}
          type="file"
          multiple
          class="visually-hidden"
          aria-label={`${label}: ${words.chooseFiles}`}
          tabIndex={-1}
          onChange={(event) => {
            add(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
      </section>
    </fieldset>
  );
}
