import { useRef, useState } from 'preact/hooks';
import { columnsOf } from '../../../lib/columns/model';
import { type Accounts, loadAccounts } from '../accounts';
import { describe, getSite, post, type Site } from '../api';
import { type DesignState, designState, editorCandidates, isTable, withDesign } from '../design';
import { language, t } from '../i18n';
import { namedInMessage, notificationsOf, storedNotification } from '../notifications';
import { Field, Loading, Notice, useLoad } from './common';
import { Deliveries } from './deliveries';
import { NotificationsEditor, type Refusal, type View } from './notifications-editor';
import { SiteScriptErrors } from './script-errors';
import { TableDesign } from './table-design';

/**
 * A site's settings: Title, SiteName, SiteGroupName and Permissions (updatesite); a table's design (its
 * columns' settings, the editor's and the grid's column lists), the attachment column's limits, command
 * buttons, browser scripts and a table's notifications (SiteSettings, through updatesite); server scripts
 * with their condition flags (updatesitesettings) and their last failures; a table's deliveries and signing
 * secret.
 */

const FLAGS = [
  ['Read', 1],
  ['Create', 2],
  ['Update', 4],
  ['Delete', 8],
  ['SendMail', 16],
  ['Export', 32],
  ['Import', 64],
  ['ManageSite', 128],
  ['ManagePermission', 256],
] as const;
const CONDITIONS = [
  'WhenloadingRecord',
  'BeforeCreate',
  'AfterCreate',
  'BeforeUpdate',
  'AfterUpdate',
  'BeforeDelete',
  'AfterDelete',
  'BeforeBulkDelete',
  'AfterBulkDelete',
] as const;

interface PermissionRow {
  kind: 'User' | 'Group' | 'Dept';
  id: string;
  bits: number;
}
interface ServerScript extends Record<string, unknown> {
  Id?: number;
  Title?: string;
  Body?: string;
}
interface Named {
  Title?: string;
  Label?: string;
  Body?: string;
  QueryString?: string;
}

function rowsOf(entries: readonly string[]): PermissionRow[] {
  return entries.flatMap((entry) => {
    const match = /^(User|Group|Dept),(-?\d+),(\d+)$/.exec(entry);
    return match
      ? [{ kind: match[1] as PermissionRow['kind'], id: match[2] as string, bits: Number(match[3]) }]
      : [];
  });
}

export function SiteSettingsPage({ id }: { id: number }) {
  const [loaded, error] = useLoad(async () => {
    // Without the lists (a refusal, an older server) the permission rows take ids as typed.
    const [site, accounts] = await Promise.all([getSite(id), loadAccounts().catch(() => undefined)]);
    return { site, accounts };
  }, [id]);
  if (error) return <Notice error={error} />;
  if (!loaded) return <Loading />;
  return <SettingsForm site={loaded.site} accounts={loaded.accounts} />;
}

function SettingsForm({ site, accounts }: { site: Site; accounts: Accounts | undefined }) {
  const words = t();
  const settings = site.SiteSettings;
  const table = isTable(site.ReferenceType) ? site.ReferenceType : undefined;
  const [design, setDesign] = useState<DesignState | undefined>(() =>
    table ? designState(site) : undefined,
  );
  const columns = design
    ? (design.entries as Record<string, unknown>[])
    : Array.isArray(settings.Columns)
      ? (settings.Columns as Record<string, unknown>[])
      : [];
  const resolved = table ? columnsOf(table, columns, language()) : undefined;
  const attachments = columns.find((column) => column.ColumnName === 'AttachmentsA') ?? {};
  const [title, setTitle] = useState(site.Title);
  const [siteName, setSiteName] = useState(site.SiteName ?? '');
  const [siteGroupName, setSiteGroupName] = useState(site.SiteGroupName ?? '');
  const [rows, setRows] = useState(() => rowsOf(site.Permissions));
  const [limits, setLimits] = useState({
    LimitQuantity: String(attachments.LimitQuantity ?? ''),
    LimitSize: String(attachments.LimitSize ?? ''),
    TotalLimitSize: String(attachments.TotalLimitSize ?? ''),
  });
  const [scripts, setScripts] = useState<ServerScript[]>(() =>
    Array.isArray(settings.ServerScripts) ? (settings.ServerScripts as ServerScript[]) : [],
  );
  const [buttons, setButtons] = useState<Named[]>(() =>
    Array.isArray(settings.CommandButtons) ? (settings.CommandButtons as Named[]) : [],
  );
  const [browserScripts, setBrowserScripts] = useState<Named[]>(() =>
    Array.isArray(settings.Scripts) ? (settings.Scripts as Named[]) : [],
  );
  const [notifications, setNotifications] = useState(() => notificationsOf(settings));
  const [refusal, setRefusal] = useState<Refusal>();
  const [failure, setFailure] = useState<string>();
  const [note, setNote] = useState<string>();
  // Ids of the stored scripts removed on this page, deleted by updatesitesettings when it is saved.
  const removedScripts = useRef<number[]>([]);

  const save = async (event: Event) => {
    event.preventDefault();
    setFailure(undefined);
    setRefusal(undefined);
    setNote(undefined);
    const limitEntries = Object.entries(limits).filter(([, value]) => value !== '');
    const otherColumns = columns.filter((column) => column.ColumnName !== 'AttachmentsA');
    const attachmentColumn = { ...attachments, ColumnName: 'AttachmentsA' } as Record<string, unknown>;
    for (const key of Object.keys(limits)) delete attachmentColumn[key];
    for (const [key, value] of limitEntries) attachmentColumn[key] = Number(value);
    const { ServerScripts: _kept, ...rest } = settings;
    const entries =
      Object.keys(attachmentColumn).length > 1 ? [...otherColumns, attachmentColumn] : otherColumns;
    const designed =
      table && design ? withDesign(rest, table, { ...design, entries }) : { ...rest, Columns: entries };
    try {
      await post(`api/items/${site.SiteId}/updatesite`, {
        Title: title,
        SiteName: siteName,
        SiteGroupName: siteGroupName,
        ...(JSON.stringify(rowsOf(site.Permissions)) !== JSON.stringify(rows) && {
          Permissions: rows.map((row) => `${row.kind},${row.id},${row.bits}`),
        }),
        SiteSettings: {
          ...designed,
          ...(settings.ServerScripts !== undefined && { ServerScripts: settings.ServerScripts }),
          CommandButtons: buttons.filter((button) => button.Label || button.QueryString),
          Scripts: browserScripts.filter((script) => script.Body),
          // A folder's or a dashboard's stored notifications (it has no records) go back as they are in `rest`.
          ...(table && { Notifications: notifications.map(storedNotification) }),
        },
      });
      const answer = await post(`api/items/${site.SiteId}/updatesitesettings`, {
        ServerScripts: [
          ...scripts.filter((script) => script.Body),
          ...removedScripts.current.map((scriptId) => ({ Id: scriptId, Delete: true })),
        ],
      });
      setNote(String(answer.Message ?? words.saved));
    } catch (error) {
      const message = describe(error);
      const named = namedInMessage(message);
      setFailure(message);
      if (named) setRefusal({ ...named, message });
    }
  };

  const update = <T,>(list: T[], set: (next: T[]) => void, index: number, change: Partial<T>) =>
    set(list.map((item, at) => (at === index ? { ...item, ...change } : item)));

  return (
    <>
      <nav aria-label="breadcrumb" class="breadcrumb">
        <a href={`#/sites/${site.SiteId}`}>{site.Title}</a>
      </nav>
      <h1>{words.siteSettings}</h1>
      <form class="card settings" onSubmit={save}>
        <Field id="site-title" label={words.title}>
          <input id="site-title" required value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        </Field>
        <Field id="site-name" label={words.siteName}>
          <input
            id="site-name"
            maxLength={32}
            value={siteName}
            onInput={(e) => setSiteName(e.currentTarget.value)}
          />
        </Field>
        <Field id="site-group-name" label={words.siteGroupName}>
          <input
            id="site-group-name"
            maxLength={32}
            value={siteGroupName}
            onInput={(e) => setSiteGroupName(e.currentTarget.value)}
          />
        </Field>

        {table && design && <TableDesign type={table} state={design} onChange={setDesign} />}

        <fieldset>
          <legend>{words.permissions}</legend>
          {rows.map((row, index) => (
            <div class="permission" key={index}>
              <label>
                <span class="visually-hidden">{words.kind}</span>
                <select
                  value={row.kind}
                  onChange={(e) =>
                    update(rows, setRows, index, { kind: e.currentTarget.value as PermissionRow['kind'] })
                  }
                >
                  <option value="User">User</option>
                  <option value="Group">Group</option>
                  <option value="Dept">Dept</option>
                </select>
              </label>
              <label for={`permission-id-${index}`} class="visually-hidden">
                {words.id}
              </label>
              {accounts ? (
                <select
                  id={`permission-id-${index}`}
                  value={row.id}
                  onChange={(e) => update(rows, setRows, index, { id: e.currentTarget.value })}
                >
                  {row.kind === 'User' && <option value="-1">{words.everyone}</option>}
                  {!accounts[row.kind].some((account) => String(account.id) === row.id) &&
                    row.id !== '-1' && <option value={row.id}>{row.id || '—'}</option>}
                  {accounts[row.kind].map((account) => (
                    <option key={account.id} value={String(account.id)}>
                      {account.name} #{account.id}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`permission-id-${index}`}
                  class="short"
                  inputMode="numeric"
                  value={row.id}
                  onInput={(e) => update(rows, setRows, index, { id: e.currentTarget.value })}
                />
              )}
              {FLAGS.map(([name, bit]) => (
                <label class="check" key={name}>
                  <input
                    type="checkbox"
                    checked={(row.bits & bit) !== 0}
                    onChange={(e) =>
                      update(rows, setRows, index, {
                        bits: e.currentTarget.checked ? row.bits | bit : row.bits & ~bit,
                      })
                    }
                  />
                  {name}
                </label>
              ))}
              <button
                type="button"
                class="link"
                onClick={() => setRows(rows.filter((_, at) => at !== index))}
              >
                {words.remove}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setRows([...rows, { kind: 'User', id: '', bits: 1 }])}>
            {words.addPermission}
          </button>
        </fieldset>

        <fieldset>
          <legend>{words.attachmentLimits} (AttachmentsA)</legend>
          <div class="columns">
            {(
              [
                ['LimitQuantity', words.limitQuantity],
                ['LimitSize', words.limitSize],
                ['TotalLimitSize', words.limitTotal],
              ] as const
            ).map(([key, label]) => (
              <Field key={key} id={`limit-${key}`} label={label}>
                <input
                  id={`limit-${key}`}
                  type="number"
                  min={0}
                  value={limits[key]}
                  onInput={(e) => setLimits({ ...limits, [key]: e.currentTarget.value })}
                />
              </Field>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend>{words.serverScripts}</legend>
          {scripts.map((script, index) => (
            <div class="script" key={index}>
              <Field id={`script-title-${index}`} label={words.title}>
                <input
                  id={`script-title-${index}`}
                  value={script.Title ?? ''}
                  onInput={(e) => update(scripts, setScripts, index, { Title: e.currentTarget.value })}
                />
              </Field>
              <Field id={`script-body-${index}`} label={words.body}>
                <textarea
                  id={`script-body-${index}`}
                  class="code"
                  rows={5}
                  value={script.Body ?? ''}
                  onInput={(e) => update(scripts, setScripts, index, { Body: e.currentTarget.value })}
                />
              </Field>
              <div class="checks">
                {CONDITIONS.map((condition) => (
                  <label class="check" key={condition}>
                    <input
                      type="checkbox"
                      checked={script[condition] === true}
                      onChange={(e) =>
                        update(scripts, setScripts, index, { [condition]: e.currentTarget.checked })
                      }
                    />
                    {condition}
                  </label>
                ))}
              </div>
              <button
                type="button"
                class="link"
                onClick={() => {
                  if (script.Id !== undefined) removedScripts.current.push(script.Id);
                  setScripts(scripts.filter((_, at) => at !== index));
                }}
              >
                {words.remove}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setScripts([...scripts, { Title: '', Body: '' }])}>
            {words.add}
          </button>
        </fieldset>

        <NamedList
          legend={words.commandButtons}
          prefix="button"
          items={buttons}
          set={setButtons}
          first={['Label', words.label]}
          second={['QueryString', words.queryString]}
        />
        <NamedList
          legend={words.browserScripts}
          prefix="browser-script"
          items={browserScripts}
          set={setBrowserScripts}
          first={['Title', words.title]}
          second={['Body', words.body]}
          code
        />
        {table && (
          <NotificationsEditor
            list={notifications}
            onChange={setNotifications}
            columns={editorCandidates(table)}
            labelOf={(name) => resolved?.byName.get(name)?.labelText ?? name}
            views={Array.isArray(settings.Views) ? (settings.Views as View[]) : []}
            refusal={refusal}
          />
        )}
        <Notice error={failure} note={note} />
        <button type="submit" class="primary">
          {words.save}
        </button>
      </form>
      <SiteScriptErrors siteId={site.SiteId} />
      {table && <Deliveries siteId={site.SiteId} />}
    </>
  );
}

function NamedList({
  legend,
  prefix,
  items,
  set,
  first,
  second,
  code,
}: {
  legend: string;
  prefix: string;
  items: Named[];
  set: (items: Named[]) => void;
  first: [keyof Named, string];
  second: [keyof Named, string];
  code?: boolean;
}) {
  const words = t();
  const change = (index: number, key: keyof Named, value: string) =>
    set(items.map((item, at) => (at === index ? { ...item, [key]: value } : item)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {items.map((item, index) => (
        <div class="named" key={index}>
          <Field id={`${prefix}-${first[0]}-${index}`} label={first[1]}>
            <input
              id={`${prefix}-${first[0]}-${index}`}
              value={item[first[0]] ?? ''}
              onInput={(e) => change(index, first[0], e.currentTarget.value)}
            />
          </Field>
          <Field id={`${prefix}-${second[0]}-${index}`} label={second[1]}>
            {code ? (
              <textarea
                id={`${prefix}-${second[0]}-${index}`}
                class="code"
                rows={4}
                value={item[second[0]] ?? ''}
                onInput={(e) => change(index, second[0], e.currentTarget.value)}
              />
            ) : (
              <input
                id={`${prefix}-${second[0]}-${index}`}
                value={item[second[0]] ?? ''}
                onInput={(e) => change(index, second[0], e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="button" class="link" onClick={() => set(items.filter((_, at) => at !== index))}>
            {words.remove}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => set([...items, {}])}>
        {words.add}
      </button>
    </fieldset>
  );
}
