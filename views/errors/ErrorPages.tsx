import { ContactLink, telHref } from '#views/layout/contact.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

export function NotFoundPage() {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="notice-page">
      <h1>{t('errors.notFound.title')}</h1>
      <p>{t('errors.notFound.text')}</p>
      <p>
        <a className="button" href={href('/')}>
          {t('errors.notFound.backHome')}
        </a>
      </p>
    </section>
  );
}

/** The error notice: 'Something went wrong', a way to try again, and the concierge contact. */
export function ErrorNoticePage({ message, retryHref, reference }: { message: string; retryHref: string; reference?: string }) {
  const { t, community } = usePage();
  return (
    <section className="notice-page" role="alert">
      <h1>{t('errors.generic.title')}</h1>
      <p>{message}</p>
      <p>
        <a className="button" href={retryHref}>
          {t('errors.generic.tryAgain')}
        </a>
      </p>
      <p className="contact-line">
        {t('errors.generic.contact', { email: community.concierge_email, phone: community.concierge_phone })}
      </p>
      <ul className="contact-actions">
        <li>
          <a href={`mailto:${community.concierge_email}`}>{t('errors.generic.contactEmail')}</a>
        </li>
        <li>
          <a href={telHref(community.concierge_phone)}>{t('errors.generic.contactPhone')}</a>
        </li>
        <li>
          <ContactLink />
        </li>
      </ul>
      {reference ? <p className="reference">{t('errors.generic.reference', { id: reference })}</p> : null}
    </section>
  );
}
