import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n';
import type { Encoding } from '../tasks';

/** The pieces the Export and Import dialogs share: the dialog, the encoding choice, a progress bar. */

/** A modal dialog (the browser's own: focus kept inside, Escape closes it, focus goes back on close). */
export function Dialog({
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
export function useLive() {
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  return live;
}

export function EncodingChoice({
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
export function Bar({
  label,
  done,
  total,
  text,
}: {
  label: string;
  done: number;
  total: number;
  text: string;
}) {
  return (
    <div class="task-progress">
      {total > 0 ? <progress max={total} value={done} aria-label={label} /> : <progress aria-label={label} />}
      <span class="muted" aria-live="polite">
        {text}
      </span>
    </div>
  );
}
