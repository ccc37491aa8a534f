import { useState } from 'preact/hooks';
import { describe, post } from '../api';
import { t } from '../i18n';
import { askServer } from '../session';
import { Field, Notice } from './common';

export function LoginPage() {
  const words = t();
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await post('users/authenticate', { LoginId: loginId, Password: password });
      // Logged in only once the server sees the cookie: a browser that refused it stays here, told why.
      if (await askServer()) location.hash = '#/';
      else setError(words.cookieRefused);
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="login card">
      <h1>{words.login}</h1>
      <form onSubmit={submit}>
        <Field id="login-id" label={words.loginId}>
          <input
            id="login-id"
            name="LoginId"
            autocomplete="username"
            required
            value={loginId}
            onInput={(e) => setLoginId(e.currentTarget.value)}
          />
        </Field>
        <Field id="password" label={words.password}>
          <input
            id="password"
            name="Password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <Notice error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {words.login}
        </button>
      </form>
    </section>
  );
}
