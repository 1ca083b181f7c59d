import type { ReactNode } from 'react';
import type { AuthLogRow, CardView } from '#src/features/payments/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { memberPath } from '#shared/paths.ts';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { AuthLogSkeleton, AuthLogTable } from '#src/features/payments/views/payments/SavedCardsAuthLog.tsx';

export const savedCardsPath = (communityCode: string, userId: number) => `${memberPath(communityCode, userId)}/cards`;

export type SavedCardsPageProps = {
  member: { id: number; name: string; communityCode: string; communityName: string };
  cards: CardView[];
  /** The default card is expired, failing or expiring. */
  updatePrompt: boolean;
  /** The log shown open without JavaScript (?log=<card id>). */
  openLog?: { cardId: number; rows: AuthLogRow[] } | null;
  /** A refused action, in the admin's wording. */
  error?: string | null;
  /** The add-a-card form (the card form), or null when the community takes no payments. */
  addCard: ReactNode | null;
};

const STATUS_KEYS = { EXPIRED: 'expired', FAILED: 'failed', EXPIRATION_PENDING: 'expirationPending' } as const;

function StatusNote({ card }: { card: CardView }) {
  const { t } = usePage();
  if (card.status === 'VALID') return null;
  const key = STATUS_KEYS[card.status];
  return (
    <p className={`card-status card-status-${key}`}>
      <span className="card-status-label">{t(`payments.cards.${key}.label`)}</span> {t(`payments.cards.${key}.message`)}
    </p>
  );
}

/**
 * Admin mode's saved cards of a member (spec sections 4 and 6): each card with its type, mask, holder,
 * expiry, the Default badge and the status labels; "Make default" and "Remove" (not for the default)
 * as plain forms; the authorisation log per card in a <details>. With JavaScript the SavedCards island
 * makes the two actions optimistic and loads a log when it is opened.
 */
export function SavedCardsPage({ member, cards, updatePrompt, openLog, error, addCard }: SavedCardsPageProps) {
  const { t } = usePage();
  const href = useHref();
  const base = savedCardsPath(member.communityCode, member.id);
  return (
    <section className="saved-cards" data-saved-cards="">
      <p>
        <a href={href(memberPath(member.communityCode, member.id))}>{t('savedCards.page.back', { name: member.name })}</a>
      </p>
      <h1>{t('savedCards.page.heading')}</h1>
      <p>{t('savedCards.page.intro', { name: member.name, community: member.communityName })}</p>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <div className="alert alert-info" role="status" data-update-prompt="" hidden={!updatePrompt}>
        {t('payments.cards.updatePrompt')}
      </div>
      <Island
        name="SavedCards"
        props={{
          labels: {
            defaultChanged: t('savedCards.alerts.defaultChanged'),
            removed: t('savedCards.alerts.removed'),
            changeDefaultFailed: t('savedCards.errors.changeDefault', { mode: 'admin', email: '' }),
            deleteFailed: t('savedCards.errors.delete', { mode: 'admin', email: '' }),
            logFailed: t('savedCards.log.failedToLoad'),
          },
        }}
      />
      {cards.length === 0 ? <EmptyState title={t('savedCards.page.none')} /> : null}
      <ul className="saved-card-list">
        {cards.map((card) => {
          const logOpen = openLog?.cardId === card.id;
          return (
            <li key={card.id} id={`card-${card.id}`} className="saved-card" data-card-id={card.id} data-default={card.isDefault ? 'true' : 'false'} data-needs-attention={card.needsAttention ? 'true' : 'false'}>
              <h2 className="saved-card-title">
                {card.typeName} <span aria-hidden="true" className="card-mask">{card.mask}</span>
                <span className="visually-hidden">{t('savedCards.card.ending', { last4: card.last4 })}</span>{' '}
                <span className="badge" data-default-badge="" hidden={!card.isDefault}>
                  {t('savedCards.card.default')}
                </span>
              </h2>
              <StatusNote card={card} />
              <dl className="facts">
                <div>
                  <dt>{t('savedCards.card.holder')}</dt>
                  <dd>{card.holder}</dd>
                </div>
                <div>
                  <dt>{t('savedCards.card.expires')}</dt>
                  <dd>{card.expiry}</dd>
                </div>
              </dl>
              <div className="saved-card-actions">
                <form method="post" action={href(`${base}/${card.id}/default`)} data-card-action="default" hidden={card.isDefault}>
                  <CsrfField />
                  <button type="submit" className="button" aria-label={t('savedCards.card.makeDefaultOf', { type: card.typeName, last4: card.last4 })}>
                    {t('savedCards.card.makeDefault')}
                  </button>
                </form>
                <form method="post" action={href(`${base}/${card.id}/remove`)} data-card-action="remove" hidden={card.isDefault}>
                  <CsrfField />
                  <button type="submit" className="button button-secondary" aria-label={t('savedCards.card.removeOf', { type: card.typeName, last4: card.last4 })}>
                    {t('savedCards.card.remove')}
                  </button>
                </form>
              </div>
              <details id={`log-${card.id}`} className="auth-log-details" data-auth-log={href(`${base}/${card.id}/log`)} data-loaded={logOpen ? 'true' : undefined} open={logOpen}>
                <summary>{t('savedCards.log.summary')}</summary>
                <div data-log-body="">
                  {logOpen ? (
                    <AuthLogTable rows={openLog!.rows} card={card} />
                  ) : (
                    <p>
                      <a href={`${href(base)}?log=${card.id}#log-${card.id}`}>{t('savedCards.log.load')}</a>
                    </p>
                  )}
                </div>
              </details>
            </li>
          );
        })}
      </ul>
      <AuthLogSkeleton />
      {addCard ? (
        <>
          <h2 id="add-card">{t('savedCards.add.heading')}</h2>
          <p className="muted">{t('savedCards.add.hint')}</p>
          {addCard}
        </>
      ) : (
        <p className="muted">{t('savedCards.page.notConfigured')}</p>
      )}
    </section>
  );
}
