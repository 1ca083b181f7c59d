import { formatDate } from '#src/core/format.ts';
import type { EpAnswerStatus } from '#src/features/expert-panels/types.ts';
import { usePage } from '#views/layout/page-context.tsx';

/** A date as the spec shows dates ("Nov 21, 2026"), with the exact time for machines. */
export function DateText({ at }: { at: Date }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDate(at)}</time>;
}

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
