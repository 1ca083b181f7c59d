import { formatDate } from '#shared/format.ts';
import type { MemberQuestionView } from '#src/features/expert-panels/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { AnswerDraftIsland, DateText, StateBadges } from '#src/features/expert-panels/views/parts.tsx';

/** The answer form as typed (kept on refusal), the message beside it, the words the server counted. */
export type AnswerFormState = { value: string; error?: string; words: number };

export type QuestionPageProps = {
  question: MemberQuestionView;
  /** The answer form, when the member may write now (a new answer, or editing one in review). */
  form: AnswerFormState | null;
  /** The member is changing a submitted answer. */
  editing: boolean;
  /** A refusal that is not about the text (closed meanwhile, picked up meanwhile). */
  error?: string;
};

function AnswerForm({ question, form, editing }: { question: MemberQuestionView; form: AnswerFormState; editing: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const { minWords: min, maxWords: max } = question.panel;
  const described = ['ep-answer-hint', 'ep-answer-count', form.error ? 'ep-answer-error' : null].filter(Boolean).join(' ');
  return (
    <>
      <form method="post" action={href(`/expert-panels/${question.id}/answer`)} className="stack" noValidate id="ep-answer-form">
        <CsrfField />
        {editing ? <input type="hidden" name="editing" value="1" /> : null}
        <div className={form.error ? 'field field-invalid' : 'field'}>
          <label htmlFor="ep-answer">{t('expertPanels.question.answerLabel')}</label>
          <p className="field-hint" id="ep-answer-hint">
            {t('expertPanels.question.answerHint', { min, max })}
          </p>
          <textarea id="ep-answer" name="body" rows={14} defaultValue={form.value} aria-invalid={form.error ? true : undefined} aria-describedby={described} />
          <p className={form.words > max ? 'word-count word-count-over' : 'word-count'} id="ep-answer-count" data-template={t('expertPanels.question.wordCount', { n: '{n}', min, max })}>
            {t('expertPanels.question.wordCount', { n: form.words, min, max })}
          </p>
          {form.error ? (
            <p className="field-error" id="ep-answer-error">
              {form.error}
            </p>
          ) : null}
        </div>
        <div className="button-row">
          <button type="submit" className="button">
            {t(editing ? 'expertPanels.question.save' : 'expertPanels.question.submit')}
          </button>
          {editing ? (
            <a className="button button-secondary" href={href(`/expert-panels/${question.id}`)}>
              {t('expertPanels.question.cancel')}
            </a>
          ) : null}
        </div>
      </form>
      <AnswerDraftIsland questionId={question.id} min={min} max={max} />
    </>
  );
}

function MarkForm({ questionId }: { questionId: number }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <form method="post" action={href(`/expert-panels/${questionId}/mark`)} className="ep-mark">
      <CsrfField />
      <p className="muted" id="ep-mark-hint">
        {t('expertPanels.question.markHint')}
      </p>
      <div className="button-row">
        <button type="submit" name="mark" value="cant_answer" className="button button-secondary" aria-describedby="ep-mark-hint">
          {t('expertPanels.question.cantAnswer')}
        </button>
        <button type="submit" name="mark" value="ignored" className="button button-secondary" aria-describedby="ep-mark-hint">
          {t('expertPanels.question.ignore')}
        </button>
      </div>
    </form>
  );
}

function Body({ html }: { html: string }) {
  return <div className="ep-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** What became of the answer: in review, decided, published, the editor's edits. */
function AnswerState({ question, editing }: { question: MemberQuestionView; editing: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const a = question.answer;
  if (question.roundup) {
    return (
      <>
        <Alert kind="success">{t('expertPanels.question.published', { title: question.roundup.title })}</Alert>
        <p>
          {t('expertPanels.question.liveAddress')}: <a href={href(question.roundup.path)}>{href(question.roundup.path)}</a>
        </p>
        <h3>{t('expertPanels.question.finalText')}</h3>
        <Body html={a.bodyHtml} />
      </>
    );
  }
  const parts = [];
  if (a.status === 'accepted' || a.status === 'declined') {
    parts.push(<p key="decision">{t(a.status === 'accepted' ? 'expertPanels.question.accepted' : 'expertPanels.question.declined')}</p>);
    if (a.decisionNote) {
      parts.push(
        <div key="note" className="ep-note">
          <h3>{t('expertPanels.question.note')}</h3>
          <p>{a.decisionNote}</p>
        </div>,
      );
    }
  }
  if (a.status === 'submitted') {
    parts.push(
      <p key="review">
        <strong>{t('expertPanels.question.inReview')}</strong> {a.editable ? t('expertPanels.question.inReviewEditable') : t('expertPanels.question.pickedUp')}
      </p>,
    );
    if (a.editable && !editing) {
      parts.push(
        <p key="edit">
          <a className="button button-secondary" href={href(`/expert-panels/${question.id}?edit=1`)}>
            {t('expertPanels.question.edit')}
          </a>
        </p>,
      );
    }
  }
  if (a.submittedAt) {
    parts.push(
      <p key="when" className="muted">
        {t('expertPanels.question.submittedOn', { date: '' })}
        <DateText at={a.submittedAt} />
        {a.editedAt ? (
          <>
            {', '}
            {t('expertPanels.question.editedOn', { date: '' })}
            <DateText at={a.editedAt} />
          </>
        ) : null}
      </p>,
    );
  }
  if (a.editorRevision) {
    parts.push(
      <div key="edits" className="ep-edits">
        <h3>{t('expertPanels.question.editorEdits')}</h3>
        <p>{t('expertPanels.question.editorEditsIntro', { date: formatDate(a.editorRevision.at) })}</p>
        <Body html={a.editorRevision.bodyHtml} />
        {a.ownHtml ? (
          <details>
            <summary>{t('expertPanels.question.yourText')}</summary>
            <Body html={a.ownHtml} />
          </details>
        ) : null}
      </div>,
    );
  } else if (a.bodyHtml && !editing) {
    parts.push(
      <div key="body">
        <h3>{t('expertPanels.question.yourAnswer')}</h3>
        <Body html={a.bodyHtml} />
      </div>,
    );
  }
  return <>{parts}</>;
}

/** A question as the member it was sent to sees it: the brief, the guidelines, their answer and what became of it. */
export function QuestionPage({ question, form, editing, error }: QuestionPageProps) {
  const { t } = usePage();
  const href = useHref();
  const a = question.answer;
  return (
    <article className="ep ep-question narrow">
      <p>
        <a href={href('/expert-panels')}>{t('expertPanels.question.back')}</a>
      </p>
      <p className="ep-meta">
        <StateBadges status={a.status} closed={question.closed} published={question.roundup !== null} /> <span>{t('expertPanels.question.panel', { name: question.panel.name })}</span>
        {' · '}
        <span>
          {t('expertPanels.question.deadline', { date: '' })}
          <DateText at={question.deadlineAt} />
        </span>
      </p>
      <h1>{question.title}</h1>
      {question.closed && a.status !== 'accepted' && a.status !== 'declined' ? <Alert kind="info">{t('expertPanels.question.closed')}</Alert> : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      {question.briefHtml ? (
        <section aria-labelledby="ep-brief">
          <h2 id="ep-brief">{t('expertPanels.question.brief')}</h2>
          <Body html={question.briefHtml} />
        </section>
      ) : null}
      {question.guidelinesHtml ? (
        <section aria-labelledby="ep-guidelines">
          <h2 id="ep-guidelines">{t('expertPanels.question.guidelines')}</h2>
          <Body html={question.guidelinesHtml} />
        </section>
      ) : null}
      <section aria-labelledby="ep-answer-heading">
        <h2 id="ep-answer-heading">{t(editing ? 'expertPanels.question.editHeading' : 'expertPanels.question.answerHeading')}</h2>
        {a.status === 'cant_answer' ? <p>{t('expertPanels.question.markedCantAnswer')}</p> : null}
        {a.status === 'ignored' ? <p>{t('expertPanels.question.markedIgnored')}</p> : null}
        <AnswerState question={question} editing={editing} />
        {form ? <AnswerForm question={question} form={form} editing={editing} /> : null}
        {a.markable ? <MarkForm questionId={question.id} /> : null}
      </section>
    </article>
  );
}

/** 'Question not found', with the way back. */
export function QuestionNotFound({ message }: { message: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow">
      <h1>{message}</h1>
      <p>{t('expertPanels.question.notFoundText')}</p>
      <p>
        <a href={href('/expert-panels')}>{t('expertPanels.question.back')}</a>
      </p>
    </section>
  );
}
