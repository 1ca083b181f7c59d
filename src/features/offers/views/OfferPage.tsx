import { formatDate } from '#shared/format.ts';
import type { OfferRedeemView, OfferView } from '#src/features/offers/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { CsrfField } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { lastDay, PartnerMark } from './parts.tsx';

function RedeemButton({ offerId, label }: { offerId: number; label: string }) {
  const href = useHref();
  return (
    <form method="post" action={href(`/offers/${offerId}/redeem`)} className="inline-form">
      <CsrfField />
      <button type="submit" className="button">
        {label}
      </button>
    </form>
  );
}

/** How to redeem: reveal the code, go to the partner, or ask the concierge; and what was already done. */
function Redeem({ offer, redeem }: { offer: OfferView; redeem: OfferRedeemView }) {
  const { t, community } = usePage();
  if (redeem.kind === 'code') {
    if (!redeem.revealed) {
      return (
        <>
          <p>{t('offers.page.codeHow')}</p>
          <RedeemButton offerId={offer.id} label={t('offers.page.reveal')} />
        </>
      );
    }
    return (
      <>
        <p>{t('offers.page.codeIs')}</p>
        <p className="offer-code">
          <code>{redeem.code}</code>
        </p>
        <p className="muted">{t('offers.page.revealedOn', { date: formatDate(redeem.at) })}</p>
        {offer.partner.website ? (
          <p>
            <a href={offer.partner.website} rel="noopener noreferrer">
              {t('offers.page.useAt', { partner: offer.partner.name })}
            </a>
          </p>
        ) : null}
      </>
    );
  }
  if (redeem.kind === 'link') {
    return (
      <>
        <p>{t('offers.page.linkHow', { partner: offer.partner.name })}</p>
        <RedeemButton offerId={offer.id} label={t('offers.page.goToPartner', { partner: offer.partner.name })} />
        {redeem.redeemed ? <p className="muted">{t('offers.page.linkUsed')}</p> : null}
      </>
    );
  }
  if (!redeem.requested) {
    return (
      <>
        <p>{t('offers.page.conciergeHow')}</p>
        <RedeemButton offerId={offer.id} label={t('offers.page.request')} />
      </>
    );
  }
  return (
    <Alert kind="success">
      {t('offers.page.requested', { date: formatDate(redeem.at), email: redeem.conciergeEmail, phone: community.concierge_phone })}
    </Alert>
  );
}

/** `/offers/{offerId}`: the partner, what the member gets, how to redeem it, terms and dates. */
export function OfferPage({ offer, error }: { offer: OfferView; error?: string }) {
  const { t, community } = usePage();
  const href = useHref();
  const notice =
    offer.availability === 'expired'
      ? t('offers.page.expired', { date: offer.endsAt ? lastDay(offer.endsAt) : '' })
      : offer.availability === 'withdrawn'
        ? t('offers.page.withdrawn')
        : offer.availability === 'upcoming'
          ? t('offers.page.upcoming', { date: offer.startsAt ? formatDate(offer.startsAt) : '' })
          : offer.availability === 'draft'
            ? t('offers.page.draft')
            : null;
  return (
    <article className="offer">
      <p className="offer-back">
        <a href={href(offer.tier === 'exec' ? '/offers/exec' : '/offers')}>{offer.tier === 'exec' ? t('offers.page.backExec') : t('offers.page.back')}</a>
      </p>
      <header className="offer-head">
        <PartnerMark name={offer.partner.name} logo={offer.partner.logo} size={80} />
        <div>
          <p className="offer-partner">{offer.partner.name}</p>
          <h1>{offer.title}</h1>
          <p className="offer-value">{offer.valueLine}</p>
          <p className="offer-tags">
            <span className="offer-tag">{t(`offers.categories.${offer.category}`)}</span>
            {offer.tier === 'exec' ? <span className="offer-tag offer-tag-exec">{t('offers.exec.badge')}</span> : null}
          </p>
        </div>
      </header>
      {notice ? <Alert kind="info">{notice}</Alert> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}

      {offer.descriptionHtml ? (
        <section aria-labelledby="offer-what">
          <h2 id="offer-what">{t('offers.page.what')}</h2>
          <div className="offer-description" dangerouslySetInnerHTML={{ __html: offer.descriptionHtml }} />
        </section>
      ) : null}

      <section aria-labelledby="offer-redeem" id="redeem" className="offer-redeem">
        <h2 id="offer-redeem">{t('offers.page.how')}</h2>
        {offer.locked === 'exec' ? (
          <>
            <p>{t('offers.page.execOnly')}</p>
            <p>
              <a href={href('/offers/exec')}>{t('offers.page.whatIsExec')}</a>
            </p>
            <p>{t('offers.page.execConcierge', { email: community.concierge_email, phone: community.concierge_phone })}</p>
          </>
        ) : offer.redeem ? (
          <Redeem offer={offer} redeem={offer.redeem} />
        ) : (
          <p>{t('offers.page.notNow')}</p>
        )}
      </section>

      <section aria-labelledby="offer-validity">
        <h2 id="offer-validity">{t('offers.page.validity')}</h2>
        <p>
          {offer.startsAt && offer.endsAt
            ? t('offers.page.between', { from: formatDate(offer.startsAt), to: lastDay(offer.endsAt) })
            : offer.endsAt
              ? t('offers.page.untilDate', { date: lastDay(offer.endsAt) })
              : offer.startsAt
                ? t('offers.page.fromDate', { date: formatDate(offer.startsAt) })
                : t('offers.page.noEnd')}
        </p>
      </section>

      {offer.terms ? (
        <section aria-labelledby="offer-terms">
          <h2 id="offer-terms">{t('offers.page.terms')}</h2>
          <p className="offer-terms">{offer.terms}</p>
        </section>
      ) : null}

      <section aria-labelledby="offer-partner">
        <h2 id="offer-partner">{t('offers.page.about', { partner: offer.partner.name })}</h2>
        {offer.partner.website ? (
          <p>
            <a href={offer.partner.website} rel="noopener noreferrer">
              {t('offers.page.website', { partner: offer.partner.name })}
            </a>
          </p>
        ) : null}
        <p className="muted">{t('offers.page.questions', { email: community.concierge_email })}</p>
      </section>
    </article>
  );
}
