import { useEffect, useState } from 'preact/hooks';
import { childSites, Permission, type Site } from '../api';
import { t } from '../i18n';
import { ExportDialog } from './export-dialog';
import { ImportDialog } from './import-dialog';

/**
 * A table's Export and Import buttons (CONTRACT 12) and their dialogs. Export writes the records the grid
 * shows (its search, filter and sort) to a CSV file as a background task, then offers the file; Import
 * uploads a CSV in chunks, runs the import task with a progress bar and shows its counts or its errors by
 * row. Each button shows only to a caller holding its bit (Export 32, Import 64).
 */

/**
 * The caller's permission bits on the site, as its parent's child list gives them (getsite has none of the
 * caller's own): 'loading' until that answer is in; 'unknown' when the parent cannot be read, and then the
 * buttons show and the server's refusal, if any, is the message.
 */
function useOwnPermission(site: Site): number | 'loading' | 'unknown' {
  const [bits, setBits] = useState<number | 'loading' | 'unknown'>('loading');
  useEffect(() => {
    let live = true;
    setBits('loading');
    childSites(site.ParentId).then(
      (children) =>
        live && setBits(children.find((child) => child.SiteId === site.SiteId)?.Permission ?? 'unknown'),
      () => live && setBits('unknown'),
    );
    return () => {
      live = false;
    };
  }, [site.SiteId, site.ParentId]);
  return bits;
}
export function TransferButtons({
  site,
  view,
  onImported,
}: {
  site: Site;
  view: Record<string, unknown>;
  onImported: () => void;
}) {
  const words = t();
  const bits = useOwnPermission(site);
  const [open, setOpen] = useState<'export' | 'import'>();
  const may = (bit: number) => bits === 'unknown' || (typeof bits === 'number' && (bits & bit) !== 0);
  return (
    <>
      {may(Permission.Export) && (
        <button type="button" onClick={() => setOpen('export')} aria-haspopup="dialog">
          {words.export}
        </button>
      )}
      {may(Permission.Import) && (
        <button type="button" onClick={() => setOpen('import')} aria-haspopup="dialog">
          {words.import}
        </button>
      )}
      {open === 'export' && (
        <ExportDialog siteId={site.SiteId} view={view} onClose={() => setOpen(undefined)} />
      )}
      {open === 'import' && (
        <ImportDialog
          site={site}
          onImported={onImported}
          onClose={() => {
            setOpen(undefined);
            // Read the grid again on close too: a task left running may have written rows since.
            onImported();
          }}
        />
      )}
    </>
  );
}
