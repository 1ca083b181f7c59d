import type { RoundupQuestionChoice } from '#src/features/expert-panels/index.ts';
import { CsrfField, Field, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { TextArea } from '#views/kit/form.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { RoundupFrame, type RoundupFormState } from '#src/features/expert-panels/views/admin/RoundupParts.tsx';

/** A new roundup: pick a question that has accepted answers, a title and an introduction. */
export function RoundupNew({ questions, form }: { questions: RoundupQuestionChoice[]; form: RoundupFormState }) {
  const { t } = usePage();
  const href = useHref();
  const v = form.values;
  const e = form.errors;
  return (
    <RoundupFrame heading={t('expertPanelsRoundups.new.title')} error={e.form}>
      <p>
        <a href={href('/admin/expert-panels/roundups')}>{t('expertPanelsRoundups.new.back')}</a>
      </p>
      {questions.length === 0 ? (
        <EmptyState title={t('expertPanelsRoundups.new.noQuestions')} />
      ) : (
        <>
          <p className="muted">{t('expertPanelsRoundups.new.intro')}</p>
          <form method="post" action={href('/admin/expert-panels/roundups')} className="stack" noValidate>
            <CsrfField />
            <div className={e.questionId ? 'field field-invalid' : 'field'}>
              <label htmlFor="rn-question">{t('expertPanelsRoundups.new.question')}</label>
              <select id="rn-question" name="questionId" defaultValue={v.questionId ?? ''} required aria-invalid={e.questionId ? true : undefined} aria-describedby={describedBy('rn-question', e.questionId)}>
                <option value="">{t('expertPanelsRoundups.new.choose')}</option>
                {questions.map((q) => (
                  <option key={q.id} value={String(q.id)}>
                    {t('expertPanelsRoundups.new.option', { title: q.title, panel: q.panelName, n: q.acceptedCount })}
                  </option>
                ))}
              </select>
              <FieldNotes id="rn-question" error={e.questionId} />
            </div>
            <Field id="rn-title" name="title" label={t('expertPanelsRoundups.form.title')} defaultValue={v.title ?? ''} error={e.title} maxLength={200} required />
            <TextArea id="rn-intro" name="intro" label={t('expertPanelsRoundups.form.introLabel')} value={v.intro ?? ''} error={e.intro} hint={t('expertPanelsRoundups.form.introHint')} rows={6} />
            <button type="submit" className="button">
              {t('expertPanelsRoundups.new.create')}
            </button>
          </form>
        </>
      )}
    </RoundupFrame>
  );
}
