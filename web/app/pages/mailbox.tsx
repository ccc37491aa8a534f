import { useState } from 'preact/hooks';
import { ApiFailure } from '../api';
import { localTime, t } from '../i18n';
import { MAILS_PER_PAGE, type Mail, type MailPage, readMailbox } from '../mailbox';
import { Loading, Notice, useLoad } from './common';

/**
 * The local mailbox for privileged users: the list (date, from, to, subject), 20 a page, and the chosen
 * mail's text. Where the server has no local mailbox (404: mail goes through Amazon SES) it says so.
 */
export function MailboxPage() {
  const words = t();
  const [offset, setOffset] = useState(0);
  const [chosen, setChosen] = useState<Mail>();
  const [loaded, error, reload] = useLoad(async (): Promise<MailPage | 'none'> => {
    try {
      return await readMailbox(offset);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.statusCode === 404) return 'none';
      throw failure;
    }
  }, [offset]);
  let body: preact.JSX.Element;
  if (error) body = <Notice error={error} />;
  else if (!loaded) body = <Loading />;
  else if (loaded === 'none')
    body = (
      <p class="notice" role="status">
        {words.noMailbox}
      </p>
    );
  else
    body = (
      <>
        <p class="muted">{words.mailboxIntro}</p>
        <div class="toolbar">
          <button type="button" onClick={reload}>
            {words.refresh}
          </button>
        </div>
        <MailList page={loaded} chosen={chosen} choose={setChosen} />
        {loaded.totalCount > MAILS_PER_PAGE && (
          <div class="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(offset - MAILS_PER_PAGE)}>
              {words.previous}
            </button>
            <span>
              {offset + 1}–{Math.min(offset + MAILS_PER_PAGE, loaded.totalCount)} {words.of}{' '}
              {loaded.totalCount}
            </span>
            <button
              type="button"
              disabled={offset + MAILS_PER_PAGE >= loaded.totalCount}
              onClick={() => setOffset(offset + MAILS_PER_PAGE)}
            >
              {words.next}
            </button>
          </div>
        )}
        {chosen ? (
          <MailText mail={chosen} />
        ) : (
          loaded.mails.length > 0 && <p class="muted">{words.chooseMail}</p>
        )}
      </>
    );
  return (
    <>
      <h1>{words.mailbox}</h1>
      {body}
    </>
  );
}

function MailList({
  page,
  chosen,
  choose,
}: {
  page: MailPage;
  chosen: Mail | undefined;
  choose: (mail: Mail) => void;
}) {
  const words = t();
  if (page.mails.length === 0) return <p class="muted">{words.noMail}</p>;
  return (
    // A region that scrolls sideways on a phone is reached from the keyboard too (axe scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls, so it takes the focus
    <section class="table-scroll" tabIndex={0} aria-label={words.mailbox}>
      <table class="grid mails">
        <thead>
          <tr>
            <th scope="col">{words.date}</th>
            <th scope="col">{words.mailFrom}</th>
            <th scope="col">{words.mailTo}</th>
            <th scope="col">{words.subject}</th>
          </tr>
        </thead>
        <tbody>
          {page.mails.map((mail) => (
            <tr key={mail.Id} class={mail.Id === chosen?.Id ? 'chosen' : undefined}>
              <td>{localTime(mail.Date)}</td>
              <td>{mail.From}</td>
              <td>{mail.To.join(', ')}</td>
              <td>
                <button
                  type="button"
                  class="link"
                  aria-pressed={mail.Id === chosen?.Id}
                  onClick={() => choose(mail)}
                >
                  {mail.Subject || '—'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function MailText({ mail }: { mail: Mail }) {
  const words = t();
  return (
    <article class="card mail" aria-labelledby="mail-subject">
      <h2 id="mail-subject">{mail.Subject || '—'}</h2>
      <dl>
        <dt>{words.mailFrom}</dt>
        <dd>{mail.From}</dd>
        <dt>{words.mailTo}</dt>
        <dd>{mail.To.join(', ')}</dd>
        {mail.Cc.length > 0 && (
          <>
            <dt>{words.mailCc}</dt>
            <dd>{mail.Cc.join(', ')}</dd>
          </>
        )}
        <dt>{words.date}</dt>
        <dd>{localTime(mail.Date)}</dd>
      </dl>
      <pre class="mail-text">{mail.Text}</pre>
    </article>
  );
}
