import { useState } from 'preact/hooks';
import type { Column } from '../../../lib/columns/model';
import type { Accounts } from '../accounts';
import { describe, post, type RecordData } from '../api';
import { cellText, linkTitles, resolver } from '../grid-display';
import { t } from '../i18n';
import { Loading, Notice } from './common';

/**
 * A record's history (CONTRACT 15): its versions newest first (TableType NormalAndHistory), each with its
 * Ver, updator and time, and the columns of the form that changed from the version before, by their labels
 * and display values (lib/columns/display.ts, as the grid shows them). Read when opened, so that the
 * record page itself reads no history.
 */

interface Change {
  readonly column: Column;
  readonly before: string;
  readonly after: string;
}

interface Version {
  readonly record: RecordData;
  /** Undefined for the oldest version kept: nothing to compare it with. */
  readonly changes?: readonly Change[];
}

export function RecordHistory(props: {
  id: number;
  columns: readonly Column[];
  accounts: Accounts | undefined;
}) {
  const words = t();
  const [versions, setVersions] = useState<readonly Version[]>();
  const [error, setError] = useState<string>();
  const load = async () => {
    setError(undefined);
    try {
      const answer = await post<{ Response: { Data: RecordData[] } }>(`api/items/${props.id}/get`, {
        ApiVersion: 1.1,
        TableType: 'NormalAndHistory',
      });
      const rows = answer.Response.Data;
      const resolve = resolver(props.accounts, await linkTitles(props.columns, rows));
      const text = (column: Column, record: RecordData) => cellText(column, record, resolve);
      setVersions(
        rows.map((record, index) => {
          const older = rows[index + 1];
          if (!older) return { record };
          const changes = props.columns
            .map((column) => ({ column, before: text(column, older), after: text(column, record) }))
            .filter((change) => change.before !== change.after);
          return { record, changes };
        }),
      );
    } catch (failure) {
      setError(describe(failure));
    }
  };
  // As the grid names users: the name without its login id.
  const userName = (id: unknown) =>
    props.accounts?.User.find((user) => String(user.id) === String(id))?.name.replace(/ \(.*\)$/, '') ??
    `User ${String(id)}`;
  const when = (time: unknown) =>
    String(time ?? '')
      .replace('T', ' ')
      .replace(/\.\d+$/, '');
  return (
    <details
      class="record-history card"
      onToggle={(event) => (event.currentTarget as HTMLDetailsElement).open && load()}
    >
      <summary>
        <h2>{words.history}</h2>
      </summary>
      <Notice error={error} />
      {!versions && !error && <Loading />}
      {versions && versions.length < 2 && <p class="muted">{words.historyNone}</p>}
      {versions && versions.length > 1 && (
        <ol class="versions">
          {versions.map(({ record, changes }) => (
            <li key={String(record.Ver)} class="version">
              <h3>
                {words.historyVersion} {String(record.Ver)}
                <span class="muted">
                  {' '}
                  {words.historyBy} {userName(record.Updator)}, {when(record.UpdatedTime)}
                </span>
              </h3>
              {!changes && <p class="muted">{words.historyCreated}</p>}
              {changes?.length === 0 && <p class="muted">{words.historyUnchanged}</p>}
              {changes && changes.length > 0 && (
                <table class="changes">
                  <thead>
                    <tr>
                      <th scope="col">{words.historyColumn}</th>
                      <th scope="col">{words.historyBefore}</th>
                      <th scope="col">{words.historyAfter}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changes.map((change) => (
                      <tr key={change.column.columnName}>
                        <th scope="row">{change.column.labelText}</th>
                        <td>{change.before}</td>
                        <td>{change.after}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
