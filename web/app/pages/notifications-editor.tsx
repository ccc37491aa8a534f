import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { isSent, type Notification, newNotification, SENT_TYPES, typeName } from '../notifications';
import { NotificationForm } from './notification-form';

/**
 * The site's notifications in the site settings (CONTRACT 14): a list with an edit and a delete button
 * each, and the form of the one being edited below it. The list is part of the page's settings and is
 * saved with them; a refusal that names a notification (`SiteSettings.Notifications[1].Address`) opens
 * it and is shown at its form.
 */

export interface View {
  readonly Id: number;
  readonly Name?: string;
}

export interface Refusal {
  readonly index: number;
  readonly field: string;
  readonly message: string;
}

export function NotificationsEditor({
  list,
  onChange,
  columns,
  labelOf,
  views,
  refusal,
}: {
  list: readonly Notification[];
  onChange: (list: Notification[]) => void;
  /** The columns MonitorChangesColumns may name (the editor's). */
  columns: readonly string[];
  labelOf: (name: string) => string;
  views: readonly View[];
  refusal?: Refusal;
}) {
  const words = t();
  const [editing, setEditing] = useState<number | undefined>(refusal?.index);
  const [seenRefusal, setSeenRefusal] = useState(refusal);
  if (refusal !== seenRefusal) {
    setSeenRefusal(refusal);
    if (refusal) setEditing(refusal.index);
  }
  const name = (entry: Notification) => `#${entry.Id} ${typeName(entry.Type)}`;
  const add = () => {
    onChange([...list, newNotification(list)]);
    setEditing(list.length);
  };
  const remove = (index: number) => {
    onChange(list.filter((_, at) => at !== index));
    setEditing(undefined);
  };
  const edited = editing === undefined ? undefined : list[editing];
  return (
    <section class="notifications" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">{words.notifications}</h2>
      {list.length === 0 ? (
        <p class="muted">{words.noNotifications}</p>
      ) : (
        <ul class="notification-list">
          {list.map((entry, index) => (
            <li key={`${entry.Id}-${index}`} class={index === editing ? 'editing' : undefined}>
              <span class="name">
                <strong>{name(entry)}</strong> <span class="muted">{String(entry.Address ?? '')}</span>
                {entry.Disabled === true && <span class="badge">{words.disabled}</span>}
                {!isSent(entry.Type) && <span class="badge error">{words.notSentType}</span>}
              </span>
              <span class="moves">
                <button
                  type="button"
                  aria-label={`${words.edit}: ${name(entry)}`}
                  aria-expanded={index === editing}
                  onClick={() => setEditing(index === editing ? undefined : index)}
                >
                  {words.edit}
                </button>
                <button
                  type="button"
                  class="link"
                  aria-label={`${words.remove}: ${name(entry)}`}
                  onClick={() => remove(index)}
                >
                  {words.remove}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={add}>
        {words.addNotification}
      </button>
      {edited && editing !== undefined && (
        <NotificationForm
          key={editing}
          entry={edited}
          types={SENT_TYPES}
          columns={columns}
          labelOf={labelOf}
          views={views}
          refusal={refusal?.index === editing ? refusal : undefined}
          onChange={(next) => onChange(list.map((entry, at) => (at === editing ? next : entry)))}
          onDone={() => setEditing(undefined)}
        />
      )}
    </section>
  );
}
