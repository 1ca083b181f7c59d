import { formatDate } from '#shared/format.ts';
import type { PushDeviceView } from '#src/features/notifications/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { SettingsLayout } from '#views/layout/SettingsPage.tsx';

export type PushDevicesProps = {
  devices: PushDeviceView[];
  /** The VAPID public key, or null when Web Push is off on this server. */
  publicKey: string | null;
  /** The member's browsers this server sends to (their endpoints), for the island. */
  knownEndpoints: string[];
};

/**
 * /settings/notifications/devices: "Turn on notifications in this browser" (an island; without
 * JavaScript it says push needs it) and the member's devices and browsers, each with a Remove button
 * (a plain form: works without JavaScript).
 */
export function PushDevices({ devices, publicKey, knownEndpoints }: PushDevicesProps) {
  const { t } = usePage();
  const href = useHref();
  const page = '/settings/notifications/devices';
  return (
    <SettingsLayout section="notifications">
      <h2>{t('push.devices.title')}</h2>
      <p>
        {t('push.devices.intro')} <a href={href('/settings/notifications')}>{t('push.devices.settingsLink')}</a>
      </p>
      <section className="push-browser" aria-labelledby="push-browser-heading">
        <h3 id="push-browser-heading">{t('push.browser.heading')}</h3>
        <Island
          name="PushSubscribe"
          props={{
            publicKey,
            worker: href('/sw.js'),
            scope: href('/'),
            subscribeUrl: href('/notifications/push/subscription'),
            unsubscribeUrl: href('/notifications/push/subscription/delete'),
            onUrl: href(`${page}?alert=push-browser-on`),
            offUrl: href(`${page}?alert=push-browser-off`),
            knownEndpoints,
            labels: {
              needsJs: t('push.browser.needsJs'),
              unsupported: t('push.browser.unsupported'),
              off: t('push.browser.off'),
              on: t('push.browser.on'),
              blocked: t('push.browser.blocked'),
              working: t('push.browser.working'),
              failed: t('push.browser.failed'),
              turnOn: t('push.browser.turnOn'),
              turnOff: t('push.browser.turnOff'),
            },
          }}
        />
      </section>
      <section className="push-devices" aria-labelledby="push-devices-heading">
        <h3 id="push-devices-heading">{t('push.devices.listHeading')}</h3>
        {devices.length === 0 ? (
          <p>{t('push.devices.empty')}</p>
        ) : (
          <ul className="push-device-list">
            {devices.map((d) => {
              const name = t(`push.devices.platform.${d.platform}`);
              const added = formatDate(d.createdAt);
              return (
                <li key={d.id} className="push-device">
                  <div className="push-device-text">
                    <strong>{name}</strong>
                    {d.service ? <span className="muted"> {t('push.devices.service', { host: d.service })}</span> : null}
                    <br />
                    <span className="muted">
                      {t('push.devices.added', { date: added })} ·{' '}
                      {d.lastUsedAt ? t('push.devices.lastUsed', { date: formatDate(d.lastUsedAt) }) : t('push.devices.neverUsed')}
                    </span>
                  </div>
                  <form method="post" action={href(`${page}/${d.id}/remove`)} className="push-device-remove">
                    <CsrfField />
                    <button type="submit" className="button button-secondary">
                      {t('push.devices.remove')}
                      <span className="visually-hidden"> {t('push.devices.removeSuffix', { device: name, date: added })}</span>
                    </button>
                  </form>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </SettingsLayout>
  );
}
