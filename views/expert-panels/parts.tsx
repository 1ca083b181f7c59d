import { formatDate } from '#shared/format.ts';
import type { EpAnswerStatus } from '#src/features/expert-panels/index.ts';
import { Island } from '#views/layout/Island.tsx';
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

/**
 * The answer's word counter and draft kept while typing (the AnswerDraft island), for the answer form
 * `ep-answer-form` / `ep-answer`. One storage key for the question's own page and onboarding's
 * ep-question, so a text begun in one is there in the other.
 */
export function AnswerDraftIsland({ questionId, min, max }: { questionId: number; min: number; max: number }) {
  const { t, community, guardian } = usePage();
  return (
    <Island
      name="AnswerDraft"
      props={{
        formId: 'ep-answer-form',
        fieldId: 'ep-answer',
        storageKey: `ep-answer:${community.id}:${guardian.userId ?? 0}:${questionId}`,
        restored: t('expertPanels.question.draftRestored'),
        saved: t('expertPanels.question.draftSaved'),
        counterId: 'ep-answer-count',
        min,
        max,
      }}
    />
  );
}
