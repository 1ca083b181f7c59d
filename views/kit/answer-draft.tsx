import { Island } from '#views/layout/Island.tsx';
import { usePage } from '#views/layout/page-context.tsx';

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
