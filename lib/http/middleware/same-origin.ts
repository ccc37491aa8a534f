import { CrossSiteRequestError } from '../../errors';
import type { ApiMiddleware } from '../event';
import { canonicalOrigin, ownOrigin } from '../origin';

/** `Sec-Fetch-Site` values of a request the browser made from this origin, or from the address bar. */
const OWN_SITE = new Set(['same-origin', 'none']);

/**
 * Refuses a request that a browser made from another site's page (login CSRF: a hostile page posts a form
 * with the attacker's credentials to `/users/authenticate`, and the browser keeps the login cookie the
 * answer sets). Browsers say where a request comes from: `Sec-Fetch-Site`, and `Origin` on every POST. A
 * request that names another origin, or that the browser marks cross-site or same-site (a sibling
 * subdomain is another origin too), is refused; one with neither header (curl, scripts) is not a
 * browser's and passes. Origin carries no path, so the base path plays no part.
 */
export function sameOrigin(): ApiMiddleware {
  const sameOriginBefore: ApiMiddleware['before'] = (request) => {
    const { event } = request;
    const site = event.headers['sec-fetch-site']?.trim().toLowerCase();
    if (site !== undefined && !OWN_SITE.has(site)) {
      throw new CrossSiteRequestError(`Sec-Fetch-Site: ${site}`);
    }
    const origin = event.headers.origin;
    if (origin === undefined) return;
    const own = ownOrigin(event);
    if (own === undefined || canonicalOrigin(origin) !== own) {
      throw new CrossSiteRequestError(`Origin ${origin} is not ${own}`);
    }
  };
  return { before: sameOriginBefore };
}
