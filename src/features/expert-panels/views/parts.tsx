import type { EpAnswerStatus } from '#src/features/expert-panels/types.ts';
import { Island } from '#views/layout/Island.tsx';
import { usePage } from '#views/layout/page-context.tsx';

export { DateText } from '#views/kit/date-text.tsx';

/** The answer's state, the question closed, and published: small badges. */
export function StateBadges({ status, closed, published }: { status: EpAnswerStatus; closed: boolean; published: boolean }) {
  const { t } = usePage();
  return (
    <span className="ep-badges">
      <span className={`badge ep-badge-${status}`}>{t(published ? 'expertPanels.status.published' : `expertPanels.status.${status}`)}</span>
      {closed && status !== 'accepted' && status !== 'declined' ? <span className="badge ep-badge-closed">{t('expertPanels.status.closed')}</span> : null}
    </span>
  );
}

export { AnswerDraftIsland } from '#views/kit/answer-draft.tsx';
