import { useState } from 'preact/hooks';
import { describe } from '../api';
import {
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryStatus,
  deliveries,
  replayFailed,
} from '../deliveries';
import { localTime, t } from '../i18n';
import { typeName } from '../notifications';
import { Field, Loading, Notice, useLoad } from './common';
import { SigningSecret } from './signing-secret';

/**
 * A table's recent deliveries for its site managers (CONTRACT 14): 50 a page, newest first, of one status
 * or all, paged by the server's `Next` (and back through the cursors already followed); the replay of the
 * failed ones; the signing secret of the HttpClient notifications.
 */
export function Deliveries({ siteId }: { siteId: number }) {
  const words = t();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  // The cursors followed from the newest page: the last one is the page shown.
  const [cursors, setCursors] = useState<string[]>([]);
  const [loaded, error, reload] = useLoad(
    () => deliveries(siteId, status || undefined, cursors.at(-1)),
    [siteId, status, cursors.join(' ')],
  );
  const [note, setNote] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const replay = async () => {
    if (!confirm(words.confirmReplay)) return;
    setNote(undefined);
    setFailure(undefined);
    try {
      setNote(await replayFailed(siteId));
      reload();
    } catch (problem) {
      setFailure(describe(problem));
    }
  };
  return (
    <section class="card deliveries" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">{words.deliveries}</h2>
      <div class="toolbar">
        <Field id="delivery-status" label={words.status}>
          <select
            id="delivery-status"
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as DeliveryStatus | '');
              setCursors([]);
            }}
          >
            <option value="">{words.allStatuses}</option>
            {DELIVERY_STATUSES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <button type="button" onClick={reload}>
          {words.refresh}
        </button>
        <button type="button" onClick={replay}>
          {words.replayFailed}
        </button>
      </div>
      <Notice error={failure} note={note} />
      {error ? <Notice error={error} /> : loaded ? <DeliveryTable list={loaded.deliveries} /> : <Loading />}
      <div class="pager">
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors([])}>
            {words.newestDeliveries}
          </button>
        )}
        {loaded?.next && (
          <button type="button" onClick={() => setCursors([...cursors, loaded.next as string])}>
            {words.olderDeliveries}
          </button>
        )}
      </div>
      <SigningSecret siteId={siteId} />
    </section>
  );
}

function DeliveryTable({ list }: { list: readonly Delivery[] }) {
  const words = t();
  if (list.length === 0) return <p class="muted">{words.noDeliveries}</p>;
  return (
    // A region that scrolls sideways on a phone is reached from the keyboard too (axe scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls, so it takes the focus
    <section class="table-scroll" tabIndex={0} aria-label={words.deliveries}>
      <table class="grid">
        <thead>
          <tr>
            <th scope="col">{words.status}</th>
            <th scope="col">{words.attempts}</th>
            <th scope="col">{words.target}</th>
            <th scope="col">{words.event}</th>
            <th scope="col">{words.queuedAt}</th>
            <th scope="col">{words.lastAttempt}</th>
            <th scope="col">{words.nextAttempt}</th>
            <th scope="col">{words.responseStatus}</th>
            <th scope="col">{words.reason}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((delivery) => (
            <tr key={delivery.DeliveryId} title={delivery.DeliveryId}>
              <td>
                <span class={`status status-${delivery.Status}`}>{delivery.Status}</span>
              </td>
              <td>{delivery.Attempts}</td>
              <td class="target">
                {typeof delivery.Type === 'number' ? typeName(delivery.Type) : delivery.Type}{' '}
                <span class="muted">{delivery.Target}</span>
              </td>
              <td>
                {delivery.Event}
                {delivery.RecordId ? (
                  <>
                    {' '}
                    <a href={`#/items/${delivery.RecordId}`}>#{delivery.RecordId}</a>
                  </>
                ) : null}
              </td>
              <td>{localTime(delivery.CreatedAt)}</td>
              <td>{localTime(delivery.LastAttemptAt)}</td>
              <td>{localTime(delivery.NextAttemptAt)}</td>
              <td>{delivery.ResponseStatus ?? ''}</td>
              <td class="reason">{delivery.Reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
