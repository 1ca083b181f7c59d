import { ContactDetails } from '#views/layout/contact.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/** The Contact us page: what the dialog shows, as a page that needs no JavaScript. */
export function ContactPage() {
  const { t } = usePage();
  return (
    <section className="contact-page">
      <h1>{t('shell.contact.heading')}</h1>
      <p className="lead">{t('shell.contact.intro')}</p>
      <ContactDetails />
    </section>
  );
}
