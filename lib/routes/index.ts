import * as accounts from './accounts';
import * as backgroundScripts from './background-scripts';
import * as exports from './exports';
import * as files from './files';
import * as imports from './imports';
import * as items from './items';
import * as mail from './mail';
import * as meta from './meta';
import * as notifications from './notifications';
import * as recycleBin from './recycle-bin';
import type { Route } from './route';
import * as search from './search';
import * as sessions from './sessions';
import * as sites from './sites';
import * as transfers from './transfers';
import * as web from './web';

export { pathsOf, type Route, type TableAccess } from './route';

/** The one route table (lib/routes/route.ts), area by area. */
export const routes: readonly Route[] = [
  ...Object.values(sessions),
  ...Object.values(accounts),
  ...Object.values(sites),
  ...Object.values(items),
  ...Object.values(recycleBin),
  ...Object.values(imports),
  ...Object.values(files),
  ...Object.values(transfers),
  ...Object.values(search),
  ...Object.values(exports),
  ...Object.values(mail),
  ...Object.values(notifications),
  ...Object.values(backgroundScripts),
  meta.openapi,
  ...Object.values(web),
];

/** Every request no route matches goes here (API Gateway's `$default` route), for a JSON 404 or 405. */
export const fallbackHandler = meta.fallback.handler;
