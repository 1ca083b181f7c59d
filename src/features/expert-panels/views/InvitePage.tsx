import { formatDate } from '#shared/format.ts';
import type { InvitationFields, InviteFormState, InviteQuestionView } from '#src/features/expert-panels/index.ts';
import { CsrfField, Hidden } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { TextArea } from '#views/kit/form.tsx';

/** What went wrong with the link, and where signing in would lead. */
export type InviteProblem = {
  message: string;
  /** The sign-in page (with its way back), when signing in as the link's member would help. */
  signInHref?: string | null;
  /** The page keeps a typed answer: sign in elsewhere (a new tab), then send it again from here. */
  newTab?: boolean;
};

export type InvitePageProps = {
  /** The link's fields, carried by every form on the page (null: the link could not be read). */
  link: InvitationFields | null;
  questions: InviteQuestionView[];
  /** Per question: what the member typed, and what was wrong with it. */
  forms: Record<number, InviteFormState>;
  problem?: InviteProblem | null;
  notice?: string | null;
  /** The last question was just dealt with. */
  allDone?: boolean;
  signedIn: boolean;
  /** Until when the link alone lets a signed-out member answer (null: signed in, or not shown). */
  expires: Date | null;
};

/**
 * The expert-panel invite page (spec section 2, issue 15): the open questions an invitation link
 * names, each with its brief, guidelines and an answer form that works with JavaScript off. A problem
 * with the link is said at the top, with the way to sign in where that helps; what the member typed
 * stays in the form.
 */
export function InvitePage({ link, questions, forms, problem, notice, allDone, signedIn, expires }: InvitePageProps) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow ep-invite">
      <h1>{t('expertPanelsInvite.heading')}</h1>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {problem ? (
        <Alert kind="error">
          <p>{problem.message}</p>
          {problem.signInHref ? (
            <p>
              {problem.newTab ? (
                <a href={problem.signInHref} target="_blank" rel="noopener">
                  {t('expertPanelsInvite.signInNewTab')}
                </a>
              ) : (
                <a href={problem.signInHref}>{t('expertPanelsInvite.signIn')}</a>
              )}
            </p>
          ) : null}
        </Alert>
      ) : null}
      {questions.length > 0 && !problem ? <p>{expires ? t('expertPanelsInvite.intro', { expires: formatDate(expires) }) : t('expertPanelsInvite.introSignedIn')}</p> : null}
      {allDone ? <p>{t('expertPanelsInvite.allDone')}</p> : null}
      {questions.map((q) => (
        <InviteQuestion key={q.id} question={q} link={link} form={forms[q.id] ?? { value: '' }} />
      ))}
      <p>
        <a href={signedIn ? href('/expert-panels') : href(`/login?redirect=${encodeURIComponent(href('/expert-panels'))}`)}>
          {t(signedIn ? 'expertPanelsInvite.allQuestions' : 'expertPanelsInvite.signInAll')}
        </a>
      </p>
    </section>
  );
}

function InviteQuestion({ question: q, link, form }: { question: InviteQuestionView; link: InvitationFields | null; form: InviteFormState }) {
  const { t } = usePage();
  const href = useHref();
  const headingId = `q-${q.id}-title`;
  return (
    <article className="card ep-invite-question" aria-labelledby={headingId} id={`question-${q.id}`}>
      <h2 id={headingId}>{q.title}</h2>
      <p className="muted">
        {t('expertPanelsInvite.panel', { panel: q.panelName })} · <strong>{t('expertPanelsInvite.deadline', { deadline: formatDate(q.deadline) })}</strong>
      </p>
      {q.briefHtml ? (
        <>
          <h3>{t('expertPanelsInvite.brief')}</h3>
          <div className="ep-invite-html" dangerouslySetInnerHTML={{ __html: q.briefHtml }} />
        </>
      ) : null}
      {q.guidelinesHtml ? (
        <details className="ep-invite-guidelines">
          <summary>{t('expertPanelsInvite.guidelines')}</summary>
          <div className="ep-invite-html" dangerouslySetInnerHTML={{ __html: q.guidelinesHtml }} />
        </details>
      ) : null}
      {form.formError ? <Alert kind="error">{form.formError}</Alert> : null}
      {link ? (
        <form method="post" action={href('/expert-panels/invite')} className="stack" noValidate>
          <CsrfField />
          <Hidden name="ids" value={link.ids} />
          <Hidden name="m" value={link.m} />
          <Hidden name="exp" value={link.exp} />
          <Hidden name="sig" value={link.sig} />
          <Hidden name="questionId" value={String(q.id)} />
          <TextArea
            id={`answer-${q.id}`}
            name="body"
            label={t('expertPanelsInvite.answerLabel', { title: q.title })}
            value={form.value}
            error={form.error}
            hint={t('expertPanelsInvite.answerHint', { min: q.minWords, max: q.maxWords })}
            rows={10}
          />
          <div className="button-row">
            <button type="submit" className="button" name="action" value="submit">
              {t('expertPanelsInvite.submit')}
            </button>
          </div>
          <p className="muted">{t('expertPanelsInvite.otherActions')}</p>
          <div className="button-row">
            <button type="submit" className="button button-secondary" name="action" value="cant_answer">
              {t('expertPanelsInvite.cantAnswer')}
            </button>
            <button type="submit" className="button button-secondary" name="action" value="ignored">
              {t('expertPanelsInvite.ignore')}
            </button>
          </div>
        </form>
      ) : null}
    </article>
  );
}
