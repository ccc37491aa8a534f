import { useState } from 'preact/hooks';
import { describe } from '../api';
import { type Secret, signingSecret } from '../deliveries';
import { localTime, t } from '../i18n';
import { Notice } from './common';

/**
 * The site's signing secret (CONTRACT 14), read only when asked for (it is made on the first read), with
 * a copy button, and replaced after a confirmation: the old one stops working at once.
 */
export function SigningSecret({ siteId }: { siteId: number }) {
  const words = t();
  const [secret, setSecret] = useState<Secret>();
  const [note, setNote] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const run = async (action: () => Promise<void>) => {
    setNote(undefined);
    setFailure(undefined);
    try {
      await action();
    } catch (problem) {
      setFailure(describe(problem));
    }
  };
  const show = () => run(async () => setSecret(await signingSecret(siteId)));
  const rotate = () => {
    if (!confirm(words.confirmRotate)) return;
    return run(async () => setSecret(await signingSecret(siteId, true)));
  };
  const copy = () =>
    run(async () => {
      await navigator.clipboard.writeText(secret?.Secret ?? '');
      setNote(words.copied);
    });
  return (
    <div class="signing-secret">
      <h3>{words.signingSecret}</h3>
      <p class="muted">{words.signingHelp}</p>
      {secret && (
        <p>
          <code id="signing-secret">{secret.Secret}</code>{' '}
          <span class="muted">
            {words.madeAt}: {localTime(secret.CreatedAt)}
          </span>
        </p>
      )}
      <div class="actions">
        {secret ? (
          <>
            <button type="button" onClick={copy}>
              {words.copy}
            </button>
            <button type="button" onClick={() => setSecret(undefined)}>
              {words.hideSecret}
            </button>
          </>
        ) : (
          <button type="button" onClick={show}>
            {words.showSecret}
          </button>
        )}
        <button type="button" class="danger" onClick={rotate}>
          {words.rotateSecret}
        </button>
      </div>
      <Notice error={failure} note={note} />
    </div>
  );
}
