import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { childSites, describe, Permission, post, type RecordData, recordId, type Site } from '../api';
import { t } from '../i18n';
import { Loading, Notice } from './common';

/**
 * A table's recycle bin (CONTRACT 15): its deleted records (TableType Deleted), each with its title and its
 * last update, and a Restore button for those who may delete in the table (the API asks the same of a
 * restore: lib/items/recycle-bin.ts). Read when opened, so that the table page itself reads no bin.
 */
export function RecycleBin({ site }: { site: Site }) {
  const words = t();
  const [canRestore, setCanRestore] = useState(false);
  const read = async () => {
    const [answer, siblings] = await Promise.all([
      post<{ Response: { Data: RecordData[] } }>(`api/items/${site.SiteId}/get`, {
        ApiVersion: 1.1,
        TableType: 'Deleted',
      }),
      childSites(site.ParentId),
    ]);
    const own = siblings.find((sibling) => sibling.SiteId === site.SiteId);
    setCanRestore(((own?.Permission ?? 0) & Permission.Delete) !== 0);
    return answer.Response.Data;
  };
  const when = (time: unknown) => String(time ?? '').replace('T', ' ');
  return (
    <Bin read={read} empty={words.recycleBinEmpty}>
      {(records, restore) => (
        <table class="deleted">
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">{words.title}</th>
              <th scope="col">{words.updated}</th>
              {canRestore && <th scope="col">{words.restore}</th>}
            </tr>
          </thead>
          <tbody>
            {records.map((record) => {
              const id = recordId(record);
              const label = record.Title ?? String(id);
              return (
                <tr key={id}>
                  <td>{id}</td>
                  <td>{record.Title}</td>
                  <td>{when(record.UpdatedTime)}</td>
                  {canRestore && (
                    <td>
                      <RestoreButton label={label} onClick={() => restore(id, label)} />
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Bin>
  );
}

/**
 * A folder's recycle bin (the top level's too): the sites deleted directly under it that the user may
 * restore (childsites with TableType Deleted), each with its kind, when it was deleted and Restore, which
 * brings it back with its subtree and records; `onRestored` then reloads the folder's list.
 */
export function SiteRecycleBin({ folderId, onRestored }: { folderId: number; onRestored: () => void }) {
  const words = t();
  return (
    <Bin read={() => childSites(folderId, 'Deleted')} empty={words.recycleBinNoSites} onRestored={onRestored}>
      {(sites, restore) => (
        <table class="deleted">
          <thead>
            <tr>
              <th scope="col">{words.title}</th>
              <th scope="col">{words.deletedTime}</th>
              <th scope="col" class="action">
                <span class="visually-hidden">{words.restore}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sites.map((site) => (
              <tr key={site.SiteId}>
                <td>
                  {site.Title}
                  <br />
                  <span class="muted">{words[site.ReferenceType]}</span>
                </td>
                <td>{String(site.DeletedTime ?? '').replace('T', ' ')}</td>
                <td class="action">
                  <RestoreButton label={site.Title} onClick={() => restore(site.SiteId, site.Title)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Bin>
  );
}

/** Restores the item `id` (named `label` in the message), then reads the bin again. */
type Restore = (id: number, label: string) => Promise<void>;

/**
 * What both bins share: a panel that reads its entries when opened, with their errors and the last
 * restore's message, and the restore itself (`onRestored` after it, before the bin is read again).
 */
function Bin<T>({
  read,
  empty,
  onRestored,
  children,
}: {
  read: () => Promise<readonly T[]>;
  empty: string;
  onRestored?: () => void;
  children: (entries: readonly T[], restore: Restore) => ComponentChildren;
}) {
  const words = t();
  const [entries, setEntries] = useState<readonly T[]>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const load = async () => {
    setError(undefined);
    try {
      setEntries(await read());
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const restore: Restore = async (id, label) => {
    setNote(undefined);
    setError(undefined);
    try {
      await post(`api/items/${id}/restore`);
      setNote(`${words.restored}: ${label}`);
      onRestored?.();
      await load();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <details
      class="recycle-bin card"
      onToggle={(event) => (event.currentTarget as HTMLDetailsElement).open && load()}
    >
      <summary>
        <h2>{words.recycleBin}</h2>
      </summary>
      <Notice error={error} note={note} />
      {!entries && !error && <Loading />}
      {entries && entries.length === 0 && <p class="muted">{empty}</p>}
      {entries && entries.length > 0 && children(entries, restore)}
    </details>
  );
}

function RestoreButton({ label, onClick }: { label: string; onClick: () => Promise<void> }) {
  const words = t();
  return (
    <button type="button" aria-label={`${words.restore}: ${label}`} onClick={() => void onClick()}>
      {words.restore}
    </button>
  );
}
