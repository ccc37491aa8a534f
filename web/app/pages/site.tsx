import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Column } from '../../../lib/columns/model';
import { useAccounts } from '../accounts';
import {
  type ChildSite,
  childSites,
  getSite,
  Permission,
  post,
  type RecordData,
  recordId,
  type Site,
} from '../api';
import { designOf } from '../design';
import { cellText, linkTitles, resolver } from '../grid-display';
import { language, t } from '../i18n';
import { pageContext, runBrowserScripts } from '../p';
import { TEMPLATES, templateOf } from '../templates';
import { Field, Loading, Notice, useAction, useLoad } from './common';
import { Markdown } from './markdown';
import { RecycleBin, SiteRecycleBin } from './recycle-bin';
import { TransferButtons } from './transfer';

const TYPES = ['Sites', 'Issues', 'Results', 'Wikis', 'Dashboards'] as const;

/** A site's page: a folder's children, a table's records, a wiki's text. `id` 0 is the top level. */
export function SitePage({ id }: { id: number }) {
  const [site, error] = useLoad(() => (id === 0 ? Promise.resolve(undefined) : getSite(id)), [id]);
  // A table's first page is asked for beside the site itself, so that the grid needs no second round trip.
  const firstPage = useMemo(() => (id === 0 ? undefined : fetchPage(id, 0, {}).catch(() => undefined)), [id]);
  useEffect(() => {
    pageContext.siteId = id;
    pageContext.id = 0;
    if (site) runBrowserScripts(site.SiteSettings.Scripts, (message) => console.error(message));
  }, [site, id]);
  if (error) return <Notice error={error} />;
  if (id !== 0 && !site) return <Loading />;
  const words = t();
  const title = site?.Title ?? words.top;
  return (
    <>
      <Breadcrumb site={site} />
      <div class="heading">
        <h1>{title}</h1>
        {site && (
          <a class="button" href={`#/sites/${id}/settings`}>
            {words.siteSettings}
          </a>
        )}
      </div>
      {!site || site.ReferenceType === 'Sites' || site.ReferenceType === 'Dashboards' ? (
        <Folder id={id} />
      ) : site.ReferenceType === 'Wikis' ? (
        <Wiki site={site} />
      ) : (
        <Grid site={site} firstPage={firstPage} />
      )}
      {site && site.ReferenceType !== 'Sites' && site.ReferenceType !== 'Dashboards' && (
        <RecycleBin key={id} site={site} />
      )}
    </>
  );
}

function Breadcrumb({ site }: { site: Site | undefined }) {
  const words = t();
  return (
    <nav aria-label="breadcrumb" class="breadcrumb">
      <a href="#/">{words.top}</a>
      {site && site.ParentId !== 0 && (
        <>
          {' › '}
          <a href={`#/sites/${site.ParentId}`}>…</a>
        </>
      )}
    </nav>
  );
}

function Folder({ id }: { id: number }) {
  const words = t();
  const [children, error, reload] = useLoad(() => childSites(id), [id]);
  const [title, setTitle] = useState('');
  // A ReferenceType (an empty site of that kind) or `template:<id>` (a table design of templates.ts).
  const [type, setType] = useState<string>('Results');
  const [run, actionError] = useAction(reload);
  const create = (event: Event) => {
    event.preventDefault();
    const template = type.startsWith('template:') ? templateOf(type.slice('template:'.length)) : undefined;
    void run(async () => {
      await post(
        `api/items/${id}/createsite`,
        template
          ? {
              Title: title,
              ReferenceType: template.referenceType,
              SiteSettings: template.settings(language()),
            }
          : { Title: title, ReferenceType: type },
      );
      setTitle('');
    });
  };
  const rename = (child: ChildSite) => {
    const next = prompt(words.newTitle, child.Title);
    if (next) void run(() => post(`api/items/${child.SiteId}/updatesite`, { Title: next }));
  };
  const move = (child: ChildSite) => {
    const next = prompt(words.moveTo, String(child.ParentId));
    if (next !== null)
      void run(() => post(`api/items/${child.SiteId}/updatesite`, { ParentId: Number(next) }));
  };
  const remove = (child: ChildSite) => {
    if (confirm(`${child.Title}: ${words.confirmDelete}`))
      void run(() => post(`api/items/${child.SiteId}/deletesite`));
  };
  return (
    <>
      <Notice error={error ?? actionError} />
      {!children ? (
        !error && <Loading />
      ) : children.length === 0 ? (
        <p>{words.noSites}</p>
      ) : (
        <ul class="sites">
          {children.map((child) => (
            <li key={child.SiteId}>
              <a href={`#/sites/${child.SiteId}`}>
                <span class={`kind kind-${child.ReferenceType}`} aria-hidden="true" />
                {child.Title}
              </a>
              <span class="muted">{words[child.ReferenceType]}</span>
              <span class="site-actions">
                {(child.Permission & Permission.ManageSite) !== 0 && (
                  <button
                    type="button"
                    onClick={() => rename(child)}
                    aria-label={`${words.rename}: ${child.Title}`}
                  >
                    {words.rename}
                  </button>
                )}
                {(child.Permission & Permission.ManagePermission) !== 0 && (
                  <button
                    type="button"
                    onClick={() => move(child)}
                    aria-label={`${words.move}: ${child.Title}`}
                  >
                    {words.move}
                  </button>
                )}
                {(child.Permission & Permission.ManageSite) !== 0 && (
                  <button
                    type="button"
                    class="danger"
                    onClick={() => remove(child)}
                    aria-label={`${words.delete}: ${child.Title}`}
                  >
                    {words.delete}
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form class="inline card" onSubmit={create} aria-label={words.newSite}>
        <h2>{words.newSite}</h2>
        <Field id="new-site-title" label={words.title}>
          <input
            id="new-site-title"
            required
            value={title}
            onInput={(e) => setTitle(e.currentTarget.value)}
          />
        </Field>
        <Field id="new-site-type" label={words.type}>
          <select id="new-site-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            <optgroup label={words.emptyKinds}>
              {TYPES.map((name) => (
                <option key={name} value={name}>
                  {words[name]}
                </option>
              ))}
            </optgroup>
            <optgroup label={words.templates}>
              {TEMPLATES.map((template) => (
                <option key={template.id} value={`template:${template.id}`}>
                  {template.name[language()]} ({words[template.referenceType]})
                </option>
              ))}
            </optgroup>
          </select>
        </Field>
        <button type="submit" class="primary">
          {words.create}
        </button>
      </form>
      <SiteRecycleBin key={id} folderId={id} onRestored={reload} />
    </>
  );
}

const PAGE_SIZE = 20;

interface Paged {
  readonly TotalCount: number;
  readonly Data: RecordData[];
}

async function fetchPage(siteId: number, offset: number, view: Record<string, unknown>): Promise<Paged> {
  const answer = await post<{ Response: Paged }>(`api/items/${siteId}/get`, {
    Offset: offset,
    PageSize: PAGE_SIZE,
    View: view,
  });
  return answer.Response;
}

/** The grid's columns (GridColumns, else the defaults), as the column model resolves them. */
function gridColumns(site: Site): Column[] {
  const design = designOf(site);
  return design.grid.flatMap((name) => {
    const column = design.columns.byName.get(name);
    return column ? [column] : [];
  });
}

/** The column a grid header sorts and filters by: TitleBody by Title; Comments by none. */
function sortKey(column: Column): string | undefined {
  if (column.kind === 'titleBody') return 'Title';
  if (column.kind === 'comments') return undefined;
  return column.columnName;
}

function Grid({ site, firstPage }: { site: Site; firstPage?: Promise<Paged | undefined> }) {
  const words = t();
  const columns = gridColumns(site);
  const filterable = columns.filter((column) => sortKey(column) !== undefined);
  const [offset, setOffset] = useState(0);
  const [sorter, setSorter] = useState<{ column: string; order: 'asc' | 'desc' }>();
  const [search, setSearch] = useState('');
  const [searchText, setSearchText] = useState('');
  const [filterColumn, setFilterColumn] = useState(() => {
    const first = filterable.find((column) => sortKey(column) === 'Title') ?? filterable[0];
    return (first && sortKey(first)) ?? 'Title';
  });
  // The cells that open the record: the id and title columns, else the first column.
  const opens = (column: Column) =>
    column.kind === 'id' ||
    column.kind === 'titleBody' ||
    column.columnName === 'Title' ||
    (column === columns[0] &&
      !columns.some((c) => c.kind === 'id' || c.kind === 'titleBody' || c.columnName === 'Title'));
  const [filterValue, setFilterValue] = useState('');
  const [filter, setFilter] = useState<Record<string, string>>({});
  const view: Record<string, unknown> = {};
  if (sorter) view.ColumnSorterHash = { [sorter.column]: sorter.order };
  if (searchText) view.Search = searchText;
  if (Object.keys(filter).length) view.ColumnFilterHash = filter;
  const prefetched = useRef(firstPage);
  const [page, error, reload] = useLoad(async () => {
    const early = prefetched.current;
    prefetched.current = undefined;
    const first = early && offset === 0 && Object.keys(view).length === 0 ? await early : undefined;
    return first ?? fetchPage(site.SiteId, offset, view);
  }, [site.SiteId, offset, JSON.stringify(view)]);
  // Names and linked titles fill the cells in when they come; the page shows ids until then.
  const accounts = useAccounts();
  const [links, setLinks] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    if (!page) return;
    let live = true;
    linkTitles(columns, page.Data).then((found) => live && found.size > 0 && setLinks(found));
    return () => {
      live = false;
    };
  }, [page]);
  const resolve = resolver(accounts, links);
  const sortBy = (column: string) => {
    setSorter(
      sorter?.column === column && sorter.order === 'asc'
        ? { column, order: 'desc' }
        : { column, order: 'asc' },
    );
    setOffset(0);
  };
  const applySearch = (event: Event) => {
    event.preventDefault();
    setSearchText(search.trim());
    setOffset(0);
  };
  const applyFilter = (event: Event) => {
    event.preventDefault();
    setFilter(filterValue ? { [filterColumn]: filterValue } : {});
    setOffset(0);
  };
  const pages = page ? Math.max(1, Math.ceil(page.TotalCount / PAGE_SIZE)) : 1;
  return (
    <>
      <div class="toolbar">
        <a class="button primary" href={`#/sites/${site.SiteId}/new`}>
          {words.newRecord}
        </a>
        <TransferButtons site={site} view={view} onImported={reload} />
        {/* biome-ignore lint/a11y/useSemanticElements: role search on the form is what screen readers announce today */}
        <form role="search" onSubmit={applySearch} class="inline">
          <label for="grid-search" class="visually-hidden">
            {words.search}
          </label>
          <input
            id="grid-search"
            type="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
          <button type="submit">{words.search}</button>
        </form>
        <form onSubmit={applyFilter} class="inline" aria-label={words.filter}>
          <label for="filter-column" class="visually-hidden">
            {words.column}
          </label>
          <select
            id="filter-column"
            value={filterColumn}
            onChange={(e) => setFilterColumn(e.currentTarget.value)}
          >
            {filterable.map((column) => (
              <option key={column.columnName} value={sortKey(column)}>
                {column.labelText}
              </option>
            ))}
          </select>
          <label for="filter-value" class="visually-hidden">
            {words.value}
          </label>
          <input
            id="filter-value"
            value={filterValue}
            onInput={(e) => setFilterValue(e.currentTarget.value)}
          />
          <button type="submit">{words.filter}</button>
          <button
            type="button"
            onClick={() => {
              setFilterValue('');
              setFilter({});
            }}
          >
            {words.clear}
          </button>
        </form>
      </div>
      <Notice error={error} />
      {!page ? (
        !error && <Loading />
      ) : page.Data.length === 0 ? (
        <p>{words.noRecords}</p>
      ) : (
        <div class="table-scroll">
          <table class="grid">
            <thead>
              <tr>
                {columns.map((column) => {
                  const key = sortKey(column);
                  return (
                    <th
                      scope="col"
                      key={column.columnName}
                      aria-sort={
                        key && sorter?.column === key
                          ? sorter.order === 'asc'
                            ? 'ascending'
                            : 'descending'
                          : undefined
                      }
                    >
                      {key ? (
                        <button type="button" class="link" onClick={() => sortBy(key)}>
                          {column.labelText}
                        </button>
                      ) : (
                        column.labelText
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {page.Data.map((record) => (
                <tr key={recordId(record)}>
                  {columns.map((column) => (
                    <td key={column.columnName} class={column.kind === 'number' ? 'number' : undefined}>
                      {opens(column) ? (
                        <a href={`#/items/${recordId(record)}`}>{cellText(column, record, resolve)}</a>
                      ) : (
                        cellText(column, record, resolve)
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && (
        <nav class="pager" aria-label={words.page}>
          <button
            type="button"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            {words.previous}
          </button>
          <span>
            {words.page} {Math.floor(offset / PAGE_SIZE) + 1} {words.of} {pages} ({page.TotalCount}{' '}
            {words.records})
          </span>
          <button
            type="button"
            disabled={offset + PAGE_SIZE >= page.TotalCount}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            {words.next}
          </button>
        </nav>
      )}
    </>
  );
}

/** A wiki shows its first record's Body as Markdown; the record form edits it. */
function Wiki({ site }: { site: Site }) {
  const words = t();
  const [page, error] = useLoad(
    async () =>
      (await post<{ Response: Paged }>(`api/items/${site.SiteId}/get`, { PageSize: 1 })).Response.Data[0] ??
      null,
    [site.SiteId],
  );
  if (error) return <Notice error={error} />;
  if (page === undefined) return <Loading />;
  if (page === null)
    return (
      <a class="button primary" href={`#/sites/${site.SiteId}/new`}>
        {words.create}
      </a>
    );
  return (
    <article class="wiki card">
      <Markdown text={page.Body ?? ''} />
      <a class="button" href={`#/items/${recordId(page)}`}>
        {words.edit}
      </a>
    </article>
  );
}
