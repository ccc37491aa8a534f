import { useState } from 'preact/hooks';
import {
  type ChildSite,
  childSites,
  describe,
  Permission,
  post,
  type RecordData,
  recordId,
  type Site,
} from '../api';
import { t } from '../i18n';
import { Loading, Notice } from './common';

/**
 * A table's recycle bin (CONTRACT 15): its deleted records (TableType Deleted), each with its title and its
 * last update, and a Restore button for those who may delete in the table (the API asks the same of a
 * restore: lib/items/recycle-bin.ts). Read when opened, so that the table page itself reads no bin.
 */
export function RecycleBin({ site }: { site: Site }) {
  const words = t();
  const [records, setRecords] = useState<readonly RecordData[]>();
  const [canRestore, setCanRestore] = useState(false);
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const load = async () => {
    setError(undefined);
    try {
      const [answer, siblings] = await Promise.all([
        post<{ Response: { Data: RecordData[] } }>(`api/items/${site.SiteId}/get`, {
          ApiVersion: 1.1,
          TableType: 'Deleted',
        }),
        childSites(site.ParentId),
      ]);
      const own = siblings.find((sibling) => sibling.SiteId === site.SiteId);
      setCanRestore(((own?.Permission ?? 0) & Permission.Delete) !== 0);
      setRecords(answer.Response.Data);
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const restore = async (record: RecordData) => {
    setNote(undefined);
    setError(undefined);
    try {
      await post(`api/items/${recordId(record)}/restore`);
      setNote(`${words.restored}: ${record.Title ?? recordId(record)}`);
      await load();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const when = (time: unknown) => String(time ?? '').replace('T', ' ');
  return (
    <details
      class="recycle-bin card"
      onToggle={(event) => (event.currentTarget as HTMLDetailsElement).open && load()}
    >
      <summary>
        <h2>{words.recycleBin}</h2>
      </summary>
      <Notice error={error} note={note} />
      {!records && !error && <Loading />}
      {records && records.length === 0 && <p class="muted">{words.recycleBinEmpty}</p>}
      {records && records.length > 0 && (
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
            {records.map((record) => (
              <tr key={recordId(record)}>
                <td>{recordId(record)}</td>
                <td>{record.Title}</td>
                <td>{when(record.UpdatedTime)}</td>
                {canRestore && (
                  <td>
                    <button
                      type="button"
                      aria-label={`${words.restore}: ${record.Title ?? recordId(record)}`}
                      onClick={() => void restore(record)}
                    >
                      {words.restore}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

/**
 * A folder's recycle bin (the top level's too): the sites deleted directly under it that the user may
 * restore (childsites with TableType Deleted), each with its kind, when it was deleted and Restore, which
 * brings it back with its subtree and records; `onRestored` then reloads the folder's list.
 */
export function SiteRecycleBin({ folderId, onRestored }: { folderId: number; onRestored: () => void }) {
  const words = t();
  const [sites, setSites] = useState<readonly ChildSite[]>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const load = async () => {
    setError(undefined);
    try {
      setSites(await childSites(folderId, 'Deleted'));
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const restore = async (site: ChildSite) => {
    setNote(undefined);
    setError(undefined);
    try {
      await post(`api/items/${site.SiteId}/restore`);
      setNote(`${words.restored}: ${site.Title}`);
      onRestored();
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
      {!sites && !error && <Loading />}
      {sites && sites.length === 0 && <p class="muted">{words.recycleBinNoSites}</p>}
      {sites && sites.length > 0 && (
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
                  <button
                    type="button"
                    aria-label={`${words.restore}: ${site.Title}`}
                    onClick={() => void restore(site)}
                  >
                    {words.restore}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
