/**
 * Operations of the reference's Web API (Implem.Pleasanter's Controllers/Api) that Kiroku does not offer.
 * A call to one answers 404 naming it as not available in Kiroku (CONTRACT section 1), so that a caller
 * can tell it from a wrong id or a mistyped path, which keep the generic 404. Paths are route-table
 * paths, matched as routes are (every literal segment ignoring case). This is the one list: an operation
 * that Kiroku comes to offer moves from here into the route table (a test holds that no path is in both).
 */
export const unavailableOperations: readonly string[] = [
  // ExtendedController: SQL defined in the server's extension files.
  '/api/extended/sql',
  // ExtensionsController: the server's extension definitions.
  '/api/extensions/get',
  '/api/extensions/{id}/get',
  // ItemsController: summaries.
  '/api/items/{id}/synchronizesummaries',
  // TenantsController beyond create.
  '/api/tenants/get',
  '/api/tenants/{id}/delete',
  '/api/tenants/{id}/suspend',
  '/api/tenants/{id}/resume',
  // UtilityController: the commercial licence.
  '/api/utility/getlicenseinfo',
];

/** The name an operation is known by in messages: its path below /api/ without the values (`items/export`). */
export function operationName(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .slice(1)
    .join('/');
}
