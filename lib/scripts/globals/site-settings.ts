/**
 * `siteSettings` (reference/pleasanter-script-objects.md 5): the site's settings as stored (read-only),
 * with the reference's members: `DefaultViewId` (the stored `GridView`; a script may set it, as the
 * reference's WhenloadingSiteSettings does, but no API call runs that condition, so the value lasts only for
 * the run), `Sections` ({Id, LabelText, AllowExpand, Expand}) and `SiteId(title)`, a host call answered by
 * lib/scripts/calls/site-settings.ts. A part of the prelude (lib/scripts/prelude.ts), in its scope.
 */
export const SITE_SETTINGS = `
  const storedSettings = state.siteSettings ?? {};
  const sections = isArray(storedSettings.Sections) ? storedSettings.Sections : [];
  let defaultViewId = typeof storedSettings.GridView === 'number' ? storedSettings.GridView : null;
  const settingsObject = { ...storedSettings };
  defineProperty(settingsObject, 'DefaultViewId', {
    get: () => defaultViewId,
    set: (value) => { defaultViewId = value === null || value === undefined ? null : Number(value); },
    enumerable: true,
  });
  settingsObject.Sections = sections.map((section) => ({
    Id: section && typeof section.Id === 'number' ? section.Id : 0,
    LabelText: section && typeof section.LabelText === 'string' ? section.LabelText : '',
    AllowExpand: section?.AllowExpand === true,
    Expand: section?.Expand !== false,
  }));
  defineProperty(settingsObject, 'SiteId', {
    value: (title) => Number(call('siteSettings.SiteId', text(title)) ?? 0),
    enumerable: false,
  });
  for (const key of keys(settingsObject)) if (key !== 'DefaultViewId') deepFreeze(settingsObject[key]);
  // Frozen: its data read-only; DefaultViewId an accessor, which freezing leaves working.
  define('siteSettings', freeze(settingsObject));
`;
