import { type ScriptError, siteScriptErrors } from '../background-scripts';
import { t } from '../i18n';
import { Loading, Notice, useLoad } from './common';

/** A site's last script failures, for its managers, below its script editor. */
export function SiteScriptErrors({ siteId }: { siteId: number }) {
  const [loaded, error] = useLoad(() => siteScriptErrors(siteId), [siteId]);
  if (error) return <Notice error={error} />;
  if (!loaded) return <Loading />;
  return <ScriptErrorList errors={loaded} />;
}

/** The last failures, newest first: when, which script in which condition, and why. */
export function ScriptErrorList({ errors }: { errors: readonly ScriptError[] }) {
  const words = t();
  return (
    <section class="card script-errors" aria-labelledby="script-errors-heading">
      <h2 id="script-errors-heading">{words.scriptErrors}</h2>
      {errors.length === 0 ? (
        <p class="muted">{words.noScriptErrors}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls sideways on a phone, so it takes the focus
        <section class="table-scroll" tabIndex={0} aria-label={words.scriptErrors}>
          <table class="grid">
            <thead>
              <tr>
                <th scope="col">{words.date}</th>
                <th scope="col">{words.condition}</th>
                <th scope="col">{words.scriptColumn}</th>
                <th scope="col">{words.reason}</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((error, index) => (
                <tr key={`${error.Time}-${index}`}>
                  <td>{error.Time.replace('T', ' ')}</td>
                  <td>{error.Condition}</td>
                  <td>{error.Script}</td>
                  <td class="reason">{error.Reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
