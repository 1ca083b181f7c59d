import { Dialog, DialogLink } from '#views/kit/dialog.tsx';
import { useHref, usePage } from './page-context.tsx';

/**
 * Contact us (issue 27, spec sections 1 and 2): the community's concierge email and phone. A page of
 * its own at /contact (works without JavaScript: every "Contact us" link points there); on member
 * pages the same details are in a native <dialog>, which islands/contact-dialog.ts opens instead of
 * following the link (installed by the bell's script, which those pages already load).
 */

export const CONTACT_PATH = '/contact';
/** The id of the dialog on member pages (the kit's Dialog). */
const CONTACT_DIALOG = 'contact-dialog';

/** A phone number as a tel: address (digits and a leading +). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, '')}`;

/** The concierge's email and phone as links. */
export function ContactDetails() {
  const { t, community } = usePage();
  return (
    <dl className="facts contact-details">
      <div>
        <dt>{t('shell.contact.email')}</dt>
        <dd>
          <a href={`mailto:${community.concierge_email}`}>{community.concierge_email}</a>
        </dd>
      </div>
      <div>
        <dt>{t('shell.contact.phone')}</dt>
        <dd>
          <a href={telHref(community.concierge_phone)}>{community.concierge_phone}</a>
        </dd>
      </div>
    </dl>
  );
}

/** A "Contact us" link: the page, or the dialog where a script opened it. */
export function ContactLink({ className }: { className?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <DialogLink href={href(CONTACT_PATH)} dialog={CONTACT_DIALOG} className={className}>
      {t('shell.contact.link')}
    </DialogLink>
  );
}

/** The dialog, closed until a Contact us link opens it; its close button works by the dialog form alone. */
export function ContactDialog() {
  const { t } = usePage();
  return (
    <Dialog id={CONTACT_DIALOG} className="contact-dialog" title={t('shell.contact.heading')} closeLabel={t('shell.contact.close')}>
      <p>{t('shell.contact.intro')}</p>
      <ContactDetails />
    </Dialog>
  );
}
