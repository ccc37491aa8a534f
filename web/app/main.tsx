import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { describe, post } from './api';
import { mayManageBackgroundScripts } from './background-scripts';
import { language, onLanguage, setLanguage, t } from './i18n';
import { mayReadMailbox } from './mailbox';
import { createP, pageContext } from './p';
import { BackgroundScriptsPage } from './pages/background-scripts';
import { Loading, Notice } from './pages/common';
import { LoginPage } from './pages/login';
import { MailboxPage } from './pages/mailbox';
import { RecordPage } from './pages/record';
import { SitePage } from './pages/site';
import { SiteSettingsPage } from './pages/site-settings';
import { UserSettingsPage } from './pages/user-settings';
import { askServer, currentUser, onSession, type SignedIn, signedOut } from './session';
import './style.css';

/**
 * The browser UI: one page, routed by the URL's hash (`#/sites/12`), so that the server serves one
 * document under the base path. Every page talks to the API with the login cookie.
 */

window.$p = createP(pageContext);

type Route =
  | { page: 'login' }
  | { page: 'site'; id: number }
  | { page: 'new-record'; siteId: number }
  | { page: 'record'; id: number }
  | { page: 'site-settings'; id: number }
  | { page: 'user-settings' }
  | { page: 'mailbox' }
  | { page: 'background-scripts' };

function parse(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  const [head, id, tail] = path.split('/');
  const number = Number(id);
  if (head === 'login') return { page: 'login' };
  if (head === 'settings') return { page: 'user-settings' };
  if (head === 'mailbox') return { page: 'mailbox' };
  if (head === 'backgroundscripts') return { page: 'background-scripts' };
  if (head === 'sites' && Number.isSafeInteger(number)) {
    if (tail === 'new') return { page: 'new-record', siteId: number };
    if (tail === 'settings') return { page: 'site-settings', id: number };
    return { page: 'site', id: number };
  }
  if (head === 'items' && Number.isSafeInteger(number)) return { page: 'record', id: number };
  return { page: 'site', id: 0 };
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parse(location.hash));
    window.addEventListener('hashchange', changed);
    // A hash set while the first render ran (the redirect to #/login) fired before this listener existed.
    changed();
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

function useLanguage(): void {
  const [, setTick] = useState(0);
  useEffect(() => onLanguage(() => setTick((tick) => tick + 1)), []);
}

/** Who is logged in (undefined while the server is asked), and why it could not be asked. */
function useSession(): [SignedIn | null | undefined, string | undefined] {
  const [, setTick] = useState(0);
  const [error, setError] = useState<string>();
  useEffect(() => {
    const off = onSession(() => setTick((tick) => tick + 1));
    askServer().catch((failure: unknown) => setError(describe(failure)));
    return off;
  }, []);
  return [currentUser(), error];
}

/** Whether the user may read the local mailbox: the server decides (web/app/mailbox.ts). */
function useMailbox(user: SignedIn | null | undefined): boolean {
  return useAllowed(user, mayReadMailbox);
}

/** Whether the server lets the user do something, asked once per user (a privileged page). */
function useAllowed(user: SignedIn | null | undefined, ask: (userId: number) => Promise<boolean>): boolean {
  const [allowed, setAllowed] = useState(false);
  const userId = user?.userId;
  useEffect(() => {
    setAllowed(false);
    if (userId === undefined) return;
    let live = true;
    ask(userId).then((answer) => live && setAllowed(answer));
    return () => {
      live = false;
    };
  }, [userId]);
  return allowed;
}

function Header({ user }: { user: SignedIn | null | undefined }) {
  const words = t();
  const mailbox = useMailbox(user);
  const background = useAllowed(user, mayManageBackgroundScripts);
  const signOut = async () => {
    await post('users/signout').catch(() => undefined);
    signedOut();
    location.hash = '#/login';
  };
  return (
    <header class="top">
      <a class="brand" href="#/">
        {words.appName}
      </a>
      <nav aria-label={words.settings}>
        <label class="language">
          <span>{words.language}</span>
          <select value={language()} onChange={(e) => setLanguage(e.currentTarget.value as 'en' | 'ja')}>
            <option value="en">English</option>
            <option value="ja">日本語</option>
          </select>
        </label>
        {user && (
          <>
            {mailbox && <a href="#/mailbox">{words.mailbox}</a>}
            {background && <a href="#/backgroundscripts">{words.backgroundScripts}</a>}
            <a href="#/settings">{words.userSettings}</a>
            <button type="button" onClick={signOut}>
              {words.signOut}
            </button>
          </>
        )}
      </nav>
    </header>
  );
}

function App() {
  useLanguage();
  const route = useRoute();
  const [user, sessionError] = useSession();
  useEffect(() => {
    document.documentElement.lang = language();
  });
  if (user === undefined) {
    return (
      <>
        <Header user={user} />
        <main id="main">{sessionError ? <Notice error={sessionError} /> : <Loading />}</main>
      </>
    );
  }
  if (!user && route.page !== 'login') {
    location.hash = '#/login';
    return null;
  }
  if (user && route.page === 'login') {
    location.hash = '#/';
    return null;
  }
  let page: preact.JSX.Element;
  switch (route.page) {
    case 'login':
      page = <LoginPage />;
      break;
    case 'site':
      page = <SitePage key={route.id} id={route.id} />;
      break;
    case 'new-record':
      page = <RecordPage key={`new-${route.siteId}`} siteId={route.siteId} />;
      break;
    case 'record':
      page = <RecordPage key={route.id} id={route.id} />;
      break;
    case 'site-settings':
      page = <SiteSettingsPage key={route.id} id={route.id} />;
      break;
    case 'mailbox':
      page = <MailboxPage />;
      break;
    case 'background-scripts':
      page = <BackgroundScriptsPage />;
      break;
    case 'user-settings':
      page = <UserSettingsPage user={user as SignedIn} />;
      break;
  }
  return (
    <>
      <Header user={user} />
      <main id="main">{page}</main>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
