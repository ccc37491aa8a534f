import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describe, url } from '../api';
import { t } from '../i18n';
import { ChunkedUpload } from '../upload';
import { Markdown } from './markdown';
import { FieldLabel } from './pickers';

/**
 * A Markdown text (Body, a Description) with a preview. An image pasted or dropped into it is uploaded for
 * the site and embedded as `![name](binaries/<guid>/show)`; the record write then attaches it (CONTRACT 6).
 */
export function BodyEditor({
  id,
  label,
  siteId,
  value,
  onChange,
  required,
  invalid,
  describedBy,
  children,
}: {
  id: string;
  label: string;
  siteId: number;
  value: string;
  onChange: (text: string) => void;
  required?: boolean;
  invalid?: boolean;
  /** More ids describing the field (its description, its error), besides the paste hint. */
  describedBy?: string;
  /** Shown under the field: its description and its error. */
  children?: ComponentChildren;
}) {
  const words = t();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const embed = async (files: File[], target: HTMLTextAreaElement) => {
    const images = files.filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return false;
    setBusy(true);
    setError(undefined);
    let text = target.value;
    let at = target.selectionStart ?? text.length;
    try {
      for (const image of images) {
        const name = image.name || 'image.png';
        const file = image.name ? image : new File([image], name, { type: image.type });
        const done = await new ChunkedUpload(file, siteId, () => undefined).run();
        const markdown = `![${name}](${new URL(url(`binaries/${done.guid}/show`)).pathname})`;
        text = `${text.slice(0, at)}${markdown}${text.slice(at)}`;
        at += markdown.length;
      }
      onChange(text);
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
    return true;
  };

  return (
    <div class="field body-editor">
      <FieldLabel id={id} label={label} required={required} />
      <textarea
        id={id}
        rows={6}
        value={value}
        aria-describedby={[`${id}-hint`, describedBy].filter(Boolean).join(' ')}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        aria-busy={busy || undefined}
        onInput={(event) => onChange(event.currentTarget.value)}
        onPaste={(event) => {
          const files = Array.from(event.clipboardData?.files ?? []);
          if (files.some((file) => file.type.startsWith('image/'))) {
            event.preventDefault();
            void embed(files, event.currentTarget);
          }
        }}
        onDrop={(event) => {
          const files = Array.from(event.dataTransfer?.files ?? []);
          if (files.some((file) => file.type.startsWith('image/'))) {
            event.preventDefault();
            void embed(files, event.currentTarget);
          }
        }}
      />
      <small id={`${id}-hint`} class="muted">
        {words.pasteImage}
      </small>
      {children}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {value && (
        <div class="preview">
          <Markdown text={value} />
        </div>
      )}
    </div>
  );
}
