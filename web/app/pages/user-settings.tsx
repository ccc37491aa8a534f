import { useState } from 'preact/hooks';
import { post } from '../api';
import { followUser, t } from '../i18n';
import type { SignedIn } from '../session';
import { Field, Loading, Notice, useAction, useLoad } from './common';

interface UserData {
  readonly UserId: number;
  readonly LoginId: string;
  readonly Name: string;
  readonly HasApiKey?: boolean;
  /** `ja`, `en`, or empty: none of their own. */
  readonly Language?: string;
}

/**
 * The user's own settings: the language (labels of built-in columns and the UI follow it), the password,
 * and the API key (created and shown once, or deleted).
 */
export function UserSettingsPage({ user }: { user: SignedIn }) {
  const words = t();
  const [data, loadError, reload] = useLoad(
    async () =>
      (await post<{ Response: { Data: UserData[] } }>(`api/users/${user.userId}/get`)).Response.Data[0],
    [user.userId],
  );
  const [password, setPassword] = useState('');
  const [apiKey, setApiKey] = useState<string>();
  const [note, setNote] = useState<string>();
  const [run, error] = useAction(reload);
  const act = (action: () => Promise<void>) => {
    setNote(undefined);
    return run(action);
  };
  if (loadError) return <Notice error={loadError} />;
  if (!data) return <Loading />;
  return (
    <>
      <h1>{words.userSettings}</h1>
      <p>
        {data.Name} ({data.LoginId})
      </p>
      <Notice error={error} note={note} />
      <section class="card" aria-labelledby="language-heading">
        <h2 id="language-heading">{words.language}</h2>
        <Field id="user-language" label={words.language}>
          <select
            id="user-language"
            value={data.Language ?? ''}
            onChange={(event) => {
              const chosen = event.currentTarget.value;
              void act(async () => {
                const answer = await post(`api/users/${user.userId}/update`, { Language: chosen || null });
                followUser(chosen);
                setNote(String(answer.Message ?? words.saved));
              });
            }}
          >
            <option value="">{words.languageOfBrowser}</option>
            <option value="ja">日本語</option>
            <option value="en">English</option>
          </select>
        </Field>
      </section>
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            const answer = await post(`api/users/${user.userId}/update`, { Password: password });
            setPassword('');
            setNote(String(answer.Message ?? words.saved));
          });
        }}
      >
        <h2>{words.changePassword}</h2>
        <Field id="new-password" label={words.newPassword}>
          <input
            id="new-password"
            type="password"
            autocomplete="new-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary">
          {words.save}
        </button>
      </form>
      <section class="card" aria-labelledby="api-key-heading">
        <h2 id="api-key-heading">{words.apiKey}</h2>
        <p>{data.HasApiKey ? words.hasApiKey : words.noApiKey}</p>
        {apiKey && (
          <div class="secret">
            <label for="api-key">{words.apiKeyShownOnce}</label>
            <input id="api-key" readOnly value={apiKey} onFocus={(e) => e.currentTarget.select()} />
          </div>
        )}
        <div class="actions">
          <button
            type="button"
            class="primary"
            onClick={() =>
              act(async () => {
                const answer = await post(`api/users/${user.userId}/createapikey`);
                setApiKey(String(answer.ApiKey));
              })
            }
          >
            {words.createApiKey}
          </button>
          {data.HasApiKey && (
            <button
              type="button"
              class="danger"
              onClick={() =>
                act(async () => {
                  await post(`api/users/${user.userId}/deleteapikey`);
                  setApiKey(undefined);
                })
              }
            >
              {words.deleteApiKey}
            </button>
          )}
        </div>
      </section>
    </>
  );
}
