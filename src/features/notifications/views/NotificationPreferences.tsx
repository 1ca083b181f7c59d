import type { PreferenceEntry, PreferencesView } from '#src/features/notifications/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { SettingsLayout } from '#views/layout/SettingsPage.tsx';

/**
 * /settings/notifications: each option of each group (with `id="<kind>"`, the list's `#<kind>` links)
 * and a checkbox per channel, then the email rhythm. Without JavaScript it is one form saved by its
 * button; the PreferenceSaver island saves each change at once instead (and hides the button).
 */
export function NotificationPreferences({ view }: { view: PreferencesView }) {
  const { t, basePath } = usePage();
  const href = useHref();
  const box = (entry: PreferenceEntry) =>
    !entry.available ? (
      <span className="preference-channel preference-unavailable" key={entry.id}>
        {t('preferences.page.unavailable', { channel: t(`notifications.channels.${entry.channel}`) })}
      </span>
    ) : (
      <label className="preference-channel" key={entry.id}>
        <input type="checkbox" name={entry.id} defaultChecked={entry.selected} data-preference={entry.id} />
        <span>{t(`notifications.channels.${entry.channel}`)}</span>
      </label>
    );
  return (
    <SettingsLayout section="notifications">
      <h2>{t('preferences.page.title')}</h2>
      <p>{t('preferences.page.intro')}</p>
      <p>
        <a href={href('/notifications')}>{t('preferences.page.backToList')}</a>
      </p>
      <p>
        <a href={href('/settings/notifications/devices')}>{t('preferences.page.devices')}</a>
      </p>
      <form method="post" action={href('/settings/notifications')} className="preferences-form" data-preferences-form="">
        <CsrfField />
        {view.groups.map((g) => (
          <section key={g.id} className="preference-group" aria-labelledby={`preference-group-${g.id}`}>
            <h3 id={`preference-group-${g.id}`}>{g.group}</h3>
            {g.options.map((o) => (
              <fieldset key={o.id} id={o.id} className="preference-option" aria-describedby={`${o.id}-description`}>
                <legend className="preference-name">{o.name}</legend>
                <p className="preference-description" id={`${o.id}-description`}>
                  {o.description}
                </p>
                <div className="preference-channels">
                  {box(o.email)}
                  {box(o.web)}
                  {box(o.push)}
                </div>
              </fieldset>
            ))}
          </section>
        ))}
        <p className="muted preference-web-note">{t('preferences.page.webNote')}</p>
        <fieldset className="preference-rhythm" aria-describedby="preference-rhythm-hint">
          <legend>{t('preferences.page.rhythmLegend')}</legend>
          <p className="field-hint" id="preference-rhythm-hint">
            {t('preferences.page.rhythmHint')}
          </p>
          <label className="preference-channel">
            <input type="radio" name="digest" value="immediate" defaultChecked={!view.emailDigest} data-digest="" />
            <span>{t('preferences.page.immediate')}</span>
          </label>
          <label className="preference-channel">
            <input type="radio" name="digest" value="daily" defaultChecked={view.emailDigest} data-digest="" />
            <span>{t('preferences.page.daily')}</span>
          </label>
        </fieldset>
        <Island
          name="PreferenceSaver"
          props={{ endpoint: `${basePath}/graphql`, labels: { failed: t('preferences.errors.badRequest'), saved: t('preferences.page.saved') } }}
        />
        <div className="button-row" data-preferences-submit="">
          <button type="submit" className="button">
            {t('preferences.page.save')}
          </button>
        </div>
      </form>
    </SettingsLayout>
  );
}
