import { CsrfField } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The unsubscribe link's page: what will stop, and the button that stops it (a POST). */
export function UnsubscribeConfirm({ action, question, explain }: { action: string; question: string; explain: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="unsubscribe">
      <h1>{t('preferences.unsubscribe.title')}</h1>
      <p>{question}</p>
      <p className="muted">{explain}</p>
      <form method="post" action={href(action)}>
        <CsrfField />
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit" className="button">
          {t('preferences.unsubscribe.button')}
        </button>
      </form>
    </section>
  );
}

export function UnsubscribeDone({ message }: { message: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="unsubscribe">
      <h1>{t('preferences.unsubscribe.doneTitle')}</h1>
      <p role="status">{message}</p>
      <p>
        <a href={href('/settings/notifications')}>{t('preferences.unsubscribe.manage')}</a>
      </p>
    </section>
  );
}

export function UnsubscribeInvalid({ message }: { message: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="unsubscribe">
      <h1>{t('preferences.unsubscribe.invalidTitle')}</h1>
      <p>{message}</p>
      <p>
        <a href={href('/settings/notifications')}>{t('preferences.unsubscribe.manage')}</a>
      </p>
    </section>
  );
}
