/** One article on the editors' side (/admin/articles/:id): status, editor, text, revisions and their diff, feedback, copy scan. */
import { Fragment } from 'react';
import { formatDate } from '#shared/format.ts';
import type { ArticleRow, ArticleStatus, DiffPart, listFeedback, RevisionDiff } from '#src/features/articles/index.ts';
import { CsrfField, FieldNotes } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { EditorOptions, statusName, type Editor } from '#src/features/articles/views/admin/parts.tsx';

/** A revision as the page shows it: its content already sanitised by the route. */
type Revision = { id: number; author_id: number; title: string; content: string; word_count: number; created_at: Date };
type Event = { id: number; from_status: string; to_status: string; actor_id: number | null; actor_first: string | null; actor_last: string | null; note: string | null; created_at: Date };
type Scan = { status: string; aggregated_score: number | null; identical_words: number | null; minor_changed_words: number | null; related_meaning_words: number | null; total_words: number | null; total_excluded: number | null } | undefined;
type Remark = Awaited<ReturnType<typeof listFeedback>>['remarks'][number];

/** The pair of revisions compared on the article page, and what changed between them. */
export type DiffView = { from: number | null; to: number | null; result: RevisionDiff };
/**
 * The editors' text form: whether it is offered, what it holds (the stored text, or what was typed: rich
 * text, and the same as plain paragraphs for the form without JavaScript), and the revision it corrects.
 */
export type TextForm = { editable: boolean; title: string; body: string; content: string; revisionId: number | null };
/** The feedback thread: one page of remarks, the cursor for older ones, and the typed remark. */
export type FeedbackView = { remarks: Remark[]; older: string | null; paged: boolean; value: string };

/** Insertions in <ins>, deletions in <del>; hidden words tell screen-reader users which is which. */
function DiffText({ parts }: { parts: DiffPart[] }) {
  const { t } = usePage();
  return (
    <>
      {parts.map((p, i) =>
        p.kind === 'added' ? (
          <ins key={i}>
            <span className="visually-hidden">{t('admin.articles.diff.srAdded')}</span>
            {p.text}
            <span className="visually-hidden">{t('admin.articles.diff.srEnd')}</span>
          </ins>
        ) : p.kind === 'removed' ? (
          <del key={i}>
            <span className="visually-hidden">{t('admin.articles.diff.srRemoved')}</span>
            {p.text}
            <span className="visually-hidden">{t('admin.articles.diff.srEnd')}</span>
          </del>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}

function RevisionDiffSection({ articleId, revisions, diff }: { articleId: number; revisions: Revision[]; diff: DiffView }) {
  const { t } = usePage();
  const href = useHref();
  const label = (r: Revision, i: number) => t('admin.articles.diff.option', { n: i + 1, date: formatDate(r.created_at) });
  const changed = diff.result && [...diff.result.title, ...diff.result.body].some((p) => p.kind !== 'same');
  return (
    <section id="diff" aria-labelledby="diff-heading">
      <h2 id="diff-heading">{t('admin.articles.diff.heading')}</h2>
      {revisions.length < 2 ? (
        <p className="muted">{t('admin.articles.diff.onlyOne')}</p>
      ) : (
        <>
          <form method="get" action={href(`/admin/articles/${articleId}#diff`)} className="filters">
            <div className="field">
              <label htmlFor="diff-from">{t('admin.articles.diff.from')}</label>
              <select id="diff-from" name="from" defaultValue={diff.from ? String(diff.from) : undefined}>
                {revisions.map((r, i) => (
                  <option key={r.id} value={r.id}>
                    {label(r, i)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="diff-to">{t('admin.articles.diff.to')}</label>
              <select id="diff-to" name="to" defaultValue={diff.to ? String(diff.to) : undefined}>
                {revisions.map((r, i) => (
                  <option key={r.id} value={r.id}>
                    {label(r, i)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button-secondary">
              {t('admin.articles.diff.show')}
            </button>
          </form>
          <p className="diff-legend">
            {t('admin.articles.diff.legend')} <ins>{t('admin.articles.diff.added')}</ins> <del>{t('admin.articles.diff.removed')}</del>
          </p>
          {diff.from === diff.to ? (
            <p>{t('admin.articles.diff.same')}</p>
          ) : !diff.result ? (
            <p>{t('admin.articles.diff.tooLarge')}</p>
          ) : !changed ? (
            <p>{t('admin.articles.diff.none')}</p>
          ) : (
            <>
              <p className="muted">{t('admin.articles.diff.summary', { added: diff.result.added, removed: diff.result.removed })}</p>
              <h3>{t('admin.articles.diff.titleLabel')}</h3>
              <p className="diff">
                <DiffText parts={diff.result.title} />
              </p>
              <h3>{t('admin.articles.diff.bodyLabel')}</h3>
              <div className="diff diff-body">
                <DiffText parts={diff.result.body} />
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}

function TextSection({ articleId, text, errors }: { articleId: number; text: TextForm; errors: Record<string, string> }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const invalid = (f: string) => (errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': `text-${f}-error` } : {});
  return (
    <section id="text" aria-labelledby="text-heading">
      <h2 id="text-heading">{t('admin.articles.text.heading')}</h2>
      {!text.editable ? (
        <p className="muted">{t('admin.articles.text.notEditable')}</p>
      ) : (
        <Island
          name="RichTextForm"
          props={{
            action: href(`/admin/articles/${articleId}/text`),
            csrf: csrfToken,
            // The revision this form corrects (the current one when the page was made).
            hidden: text.revisionId ? { revisionId: String(text.revisionId) } : {},
            idPrefix: 'text',
            title: text.title,
            content: text.content,
            plainBody: text.body,
            errors,
            labels: {
              title: t('admin.articles.text.title'),
              body: t('admin.articles.text.body'),
              hint: t('admin.articles.text.hint'),
              hintRich: t('admin.articles.text.hintRich'),
              save: t('admin.articles.text.save'),
              wordCount: t('articles.pages.wordCount', { n: '{n}' }),
              toolbar: t('articles.pages.toolbar'),
              bold: t('articles.pages.bold'),
              italic: t('articles.pages.italic'),
              underline: t('articles.pages.underline'),
              heading: t('articles.pages.heading'),
              subheading: t('articles.pages.subheading'),
              bulletList: t('articles.pages.bulletList'),
              numberedList: t('articles.pages.numberedList'),
              link: t('articles.pages.link'),
              unlink: t('articles.pages.unlink'),
              linkUrl: t('articles.pages.linkUrl'),
              linkInvalid: t('articles.pages.linkInvalid'),
              apply: t('articles.pages.linkApply'),
              cancel: t('articles.pages.cancel'),
            },
          }}
        />
      )}
    </section>
  );
}

function FeedbackSection({ articleId, feedback, error }: { articleId: number; feedback: FeedbackView; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="feedback" id="feedback" aria-labelledby="feedback-heading">
      <h2 id="feedback-heading">{t('admin.articles.feedback.heading')}</h2>
      {feedback.older || feedback.paged ? (
        <p>
          {feedback.older ? <a href={href(`/admin/articles/${articleId}?before=${feedback.older}#feedback`)}>{t('admin.articles.feedback.older')}</a> : null}
          {feedback.older && feedback.paged ? ' · ' : null}
          {feedback.paged ? <a href={href(`/admin/articles/${articleId}#feedback`)}>{t('admin.articles.feedback.newest')}</a> : null}
        </p>
      ) : null}
      {feedback.remarks.length === 0 ? <p className="muted">{t('admin.articles.feedback.none')}</p> : null}
      <ol className="plain thread">
        {feedback.remarks.map((r) => (
          <li key={r.id} className={r.hasRead ? 'remark' : 'remark remark-unread'}>
            <p className="remark-meta">
              {r.author.snapshot.name} · {formatDate(r.createdAt)}
            </p>
            <p className="remark-text">{r.remark}</p>
          </li>
        ))}
      </ol>
      <form method="post" action={href(`/admin/articles/${articleId}/feedback`)} className="stack" noValidate>
        <CsrfField />
        <div className={error ? 'field field-invalid' : 'field'}>
          <label htmlFor="feedback-text">{t('admin.articles.feedback.label')}</label>
          <textarea
            id="feedback-text"
            name="feedback"
            rows={4}
            maxLength={5000}
            required
            defaultValue={feedback.value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'feedback-text-error' : undefined}
          />
          <FieldNotes id="feedback-text" error={error} />
        </div>
        <button type="submit" className="button button-secondary">
          {t('admin.articles.feedback.send')}
        </button>
      </form>
    </section>
  );
}

export function ArticleDetail({
  article,
  editors,
  next,
  revisions,
  events,
  scan,
  errors,
  notice,
  diff,
  text,
  feedback,
  move = {},
}: {
  article: ArticleRow;
  editors: Editor[];
  next: readonly ArticleStatus[];
  revisions: Revision[];
  events: Event[];
  scan: Scan;
  errors: Record<string, string>;
  notice?: string;
  diff: DiffView;
  text: TextForm;
  feedback: FeedbackView;
  /** What was typed in the move form, when a move was refused: it comes back to correct. */
  move?: { to?: string; scheduledDate?: string; articleUrl?: string; note?: string };
}) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section>
      <p>
        <a href={href('/admin/articles')}>{t('admin.articles.back')}</a>
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <h1>{article.title?.trim() || t('articles.pages.untitled')}</h1>
      <p className="muted">
        {statusName(t, article.status)} · {t('admin.articles.words', { n: article.word_count ?? 0 })}
      </p>
      <div className="admin-actions">
        <form method="post" action={href(`/admin/articles/${article.id}/editor`)} className="stack" id="assign">
          <CsrfField />
          <div className="field">
            <label htmlFor="editorId">{t('admin.articles.assign')}</label>
            <select id="editorId" name="editorId" defaultValue={article.editor_id ? String(article.editor_id) : ''}>
              <option value="">{t('admin.articles.unassigned')}</option>
              <EditorOptions editors={editors} />
            </select>
          </div>
          <button type="submit" className="button button-secondary">
            {t('admin.articles.assignSave')}
          </button>
        </form>
        {next.length > 0 ? (
          <form method="post" action={href(`/admin/articles/${article.id}/move`)} className="stack" noValidate>
            <CsrfField />
            <div className="field">
              <label htmlFor="to">{t('admin.articles.move')}</label>
              <select id="to" name="to" defaultValue={move.to}>
                {next.map((s) => (
                  <option key={s} value={s}>
                    {statusName(t, s)}
                  </option>
                ))}
              </select>
            </div>
            <div className={errors.scheduledDate ? 'field field-invalid' : 'field'}>
              <label htmlFor="scheduledDate">{t('admin.articles.scheduledDate')}</label>
              <input id="scheduledDate" name="scheduledDate" type="datetime-local" defaultValue={move.scheduledDate} aria-invalid={errors.scheduledDate ? true : undefined} aria-describedby={errors.scheduledDate ? 'scheduledDate-error' : undefined} />
              {errors.scheduledDate ? <p className="field-error" id="scheduledDate-error">{errors.scheduledDate}</p> : null}
            </div>
            <div className={errors.articleUrl ? 'field field-invalid' : 'field'}>
              <label htmlFor="articleUrl">{t('admin.articles.articleUrl')}</label>
              <input id="articleUrl" name="articleUrl" type="url" defaultValue={move.articleUrl} aria-invalid={errors.articleUrl ? true : undefined} aria-describedby={errors.articleUrl ? 'articleUrl-error' : undefined} />
              {errors.articleUrl ? <p className="field-error" id="articleUrl-error">{errors.articleUrl}</p> : null}
            </div>
            <div className={errors.note ? 'field field-invalid' : 'field'}>
              <label htmlFor="note">{t('admin.articles.note')}</label>
              <input id="note" name="note" maxLength={500} defaultValue={move.note} aria-invalid={errors.note ? true : undefined} aria-describedby={errors.note ? 'note-error' : undefined} />
              <FieldNotes id="note" error={errors.note} />
            </div>
            <button type="submit" className="button">
              {t('admin.articles.moveSave')}
            </button>
          </form>
        ) : null}
      </div>
      <FeedbackSection articleId={article.id} feedback={feedback} error={errors.feedback} />
      <TextSection articleId={article.id} text={text} errors={errors} />
      <RevisionDiffSection articleId={article.id} revisions={revisions} diff={diff} />
      <h2 id="scan">{t('admin.articles.scan')}</h2>
      <p>
        {scan && scan.status === 'COMPLETED'
          ? t('admin.articles.scanFigures', {
              score: scan.aggregated_score ?? 0,
              identical: scan.identical_words ?? 0,
              minor: scan.minor_changed_words ?? 0,
              related: scan.related_meaning_words ?? 0,
              total: scan.total_words ?? 0,
              excluded: scan.total_excluded ?? 0,
            })
          : scan
            ? t(scan.status === 'PENDING' ? 'admin.articles.scanPending' : 'admin.articles.scanFailed')
            : t('admin.articles.scanNone')}
      </p>
      {article.current_revision_id !== null && scan?.status !== 'PENDING' ? (
        <form method="post" action={href(`/admin/articles/${article.id}/scan`)}>
          <CsrfField />
          <button type="submit" className="button button-secondary">
            {t(scan ? 'admin.articles.scanAgain' : 'admin.articles.scanNow')}
          </button>
        </form>
      ) : null}
      <h2>{t('admin.articles.history')}</h2>
      <ol className="plain">
        {events.map((e) => (
          <li key={e.id}>
            {t('admin.articles.historyEntry', {
              date: formatDate(e.created_at),
              time: new Date(e.created_at).toISOString().slice(11, 16),
              who: e.actor_id === null ? t('admin.articles.historyScheduler') : `${e.actor_first ?? ''} ${e.actor_last ?? ''}`.trim(),
              from: statusName(t, e.from_status),
              to: statusName(t, e.to_status),
            })}
            {e.note ? ` (${e.note})` : ''}
          </li>
        ))}
      </ol>
      <h2>{t('admin.articles.revisions')}</h2>
      {revisions
        .slice()
        .reverse()
        .map((r, i) => (
          <details key={r.id} className="panel" open={i === 0}>
            <summary>{t('admin.articles.revision', { n: revisions.length - i, words: r.word_count, date: formatDate(r.created_at) })}</summary>
            <h3>{r.title}</h3>
            <div className="preview" dangerouslySetInnerHTML={{ __html: r.content }} />
          </details>
        ))}
    </section>
  );
}
