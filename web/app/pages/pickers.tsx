import { useEffect, useRef, useState } from 'preact/hooks';
import { parseChoicesText, staticChoices } from '../../../lib/columns/choices';
import { getSite, post, type RecordData, recordId, type Site } from '../api';
import { t } from '../i18n';

/**
 * Searchable pickers for the record form: a search box that asks the server as the user types, and a
 * native select of what it found (so that keyboards, screen readers and phones all know how to use it).
 * The current value stays offered even when the last search did not find it.
 */

export interface Option {
  readonly value: string;
  readonly text: string;
}

export function SearchPicker({
  id,
  label,
  value,
  empty,
  search,
  currentText,
  lookUp,
  onChange,
  invalid,
  describedBy,
  required,
}: {
  id: string;
  label: string;
  value: string;
  /** The value that means "not set" ('' for a link, '0' for a user). */
  empty: string;
  search: (query: string) => Promise<Option[]>;
  /** The text of the current value, when the caller knows it. */
  currentText?: string;
  /** Asks for the text of the current value when the searches have not found it. */
  lookUp?: (value: string) => Promise<string | undefined>;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string;
  required?: boolean;
}) {
  const words = t();
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [failure, setFailure] = useState<string>();
  const known = useRef(new Map<string, string>());
  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () => {
        search(query.trim()).then(
          (found) => {
            if (!live) return;
            for (const option of found) known.current.set(option.value, option.text);
            setOptions(found);
            setFailure(undefined);
          },
          (error: Error) => live && setFailure(error.message),
        );
      },
      query ? 250 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);
  const [looked, setLooked] = useState<string>();
  const shown = value !== empty && !options.some((option) => option.value === value);
  useEffect(() => {
    if (!shown || currentText || known.current.has(value) || !lookUp) return;
    let live = true;
    lookUp(value).then(
      (text) => live && text !== undefined && setLooked(text),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [value, shown]);
  return (
    <div class="field picker">
      <FieldLabel id={id} label={label} required={required} />
      <input
        id={`${id}-search`}
        type="search"
        aria-label={`${words.searchIn}: ${label}`}
        placeholder={`${words.searchIn}…`}
        aria-controls={id}
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      <select
        id={id}
        name={id.replace(/^field-/, '')}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-required={required || undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        <option value={empty}>{words.notSet}</option>
        {shown && (
          <option value={value}>{currentText ?? known.current.get(value) ?? looked ?? `? ${value}`}</option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
      {failure && <p class="error">{failure}</p>}
    </div>
  );
}

/**
 * A field's label with the required marker beside it, outside the label, so that the field's name stays
 * its label alone; the control itself carries aria-required.
 */
export function FieldLabel({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <span class="label-line">
      <label for={id}>{label}</label>
      {required && (
        <span class="required" title={t().required} aria-hidden="true">
          *
        </span>
      )}
    </span>
  );
}

/** A record's title as the answers give it: the composite ItemTitle, else Title. */
export function titleOf(record: RecordData): string {
  return String(record.ItemTitle ?? record.Title ?? recordId(record));
}

const targets = new Map<number, Promise<Site>>();

function target(siteId: number): Promise<Site> {
  let site = targets.get(siteId);
  if (!site) {
    site = getSite(siteId);
    site.catch(() => targets.delete(siteId));
    targets.set(siteId, site);
  }
  return site;
}

/**
 * What a link column offers from each of its target sites, 50 a site: the records whose Title contains
 * `query`, by title; for a wiki, the lines of its Body read as choices (reference 3), those whose text
 * contains it.
 */
export async function searchRecords(siteIds: readonly number[], query: string): Promise<Option[]> {
  const pages = await Promise.all(
    siteIds.map(async (siteId): Promise<Option[]> => {
      const site = await target(siteId);
      if (site.ReferenceType === 'Wikis') {
        const answer = await post<{ Response: { Data: RecordData[] } }>(`api/items/${siteId}/get`, {
          PageSize: 1,
        });
        const needle = query.toLowerCase();
        return staticChoices(parseChoicesText(String(answer.Response.Data[0]?.Body ?? '')))
          .filter((choice) => choice.text.toLowerCase().includes(needle))
          .slice(0, 50)
          .map((choice) => ({ value: choice.value, text: choice.text }));
      }
      const answer = await post<{ Response: { Data: RecordData[] } }>(`api/items/${siteId}/get`, {
        PageSize: 50,
        View: {
          ...(query ? { ColumnFilterHash: { Title: query } } : {}),
          ColumnSorterHash: { Title: 'asc' },
        },
      });
      return answer.Response.Data.map((record) => ({
        value: String(recordId(record)),
        text: titleOf(record),
      }));
    }),
  );
  return pages.flat();
}

/** The tenant's users whose name contains `query` (users/get lets every user of the tenant list them). */
export async function searchUsers(query: string): Promise<Option[]> {
  const answer = await post<{ Response: { Data: { UserId: number; Name: string; LoginId: string }[] } }>(
    'api/users/get',
    {
      PageSize: 50,
      View: { ...(query ? { ColumnFilterHash: { Name: query } } : {}), ColumnSorterHash: { Name: 'asc' } },
    },
  );
  return answer.Response.Data.map((user) => ({ value: String(user.UserId), text: user.Name }));
}
