/** The member's editor page (/articles/edit): the form, the read-only preview, the sidebar and the feedback thread. */
import type { ReactNode } from 'react';
import type { ArticleRow } from '#src/features/articles/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Island } from '#views/layout/Island.tsx';
import type { ArticleEditorLabels } from '#islands/ArticleEditor.tsx';
import { ArticlesNav, Paragraphs, titleOf } from '#src/features/articles/views/parts.tsx';

type Remark = { id: number; remark: string; createdAt: Date; hasRead: boolean; author: { id: number; snapshot: { name: string } } };

function FeedbackThread({ articleId, remarks, older, error, text }: { articleId: number; remarks: Remark[]; older: EditorState['olderFeedback']; error?: string; text: string }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const k = (key: string) => t(`articles.pages.${key}`);
  return (
    <Island
      name="FeedbackThread"
      props={{
        articleId,
        action: href('/articles/feedback'),
        graphqlUrl: href('/graphql'),
        csrf: csrfToken,
        // Without JavaScript the link asks for more of the newest remarks; hydrated, older ones are fetched and added.
        olderHref: older ? href(`/articles/edit?feedback=${older.count}#feedback`) : null,
        olderCursor: older?.cursor ?? null,
        text,
        remarks: remarks.map((r) => ({ id: r.id, remark: r.remark, createdAt: new Date(r.createdAt).toISOString(), hasRead: r.hasRead, authorName: r.author.snapshot.name })),
        error,
        labels: {
          heading: k('feedback'),
          none: k('feedbackNone'),
          older: k('olderFeedback'),
          label: k('feedbackLabel'),
          send: k('feedbackSend'),
          sending: k('feedbackSending'),
          failed: t('articles.errors.feedback'),
          retry: k('feedbackRetry'),
          you: k('you'),
          sent: k('feedbackSent'),
          new: k('feedbackNew'),
          olderFailed: k('olderFeedbackFailed'),
        },
      }}
    />
  );
}

export type EditorState = {
  article: ArticleRow | undefined;
  title: string;
  /** The body as plain paragraphs (the field without JavaScript). */
  body: string;
  /** The body as rich text (the editor island). */
  content: string;
  /** The stored body, sanitised, for the read-only preview. */
  preview: string;
  wordCount: number;
  byline: string | null;
  remarks: Remark[];
  /** Where older remarks start (for the island) and how many the no-JavaScript link asks for; null when none. */
  olderFeedback: { cursor: string; count: number } | null;
  errors: Record<string, string>;
  notice?: string;
  /** The active blackout's notice, and the short line for the island's list of what Submit needs. */
  blackout: { notice: string; need: string } | null;
  /** guidelines=true: the sidebar's guidelines panel (and, on a phone, the sidebar) opens at load. */
  guidelinesOpen: boolean;
  /** The submit agreement box, as posted: ticked again on a refused submit. */
  agreed: boolean;
  /** The feedback message, as posted: back in its field on a refused send. */
  feedbackText: string;
  /** The article stopped being editable while this was typed: the text is shown to copy, with no Save or Submit. */
  locked: boolean;
};

function Sidebar({ state }: { state: EditorState }) {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <aside className="editor-sidebar" id="editor-sidebar" aria-label={t('articles.pages.sidebarOpen')}>
      <div id="editor-sidebar-close" className="slideover-close-slot" />
      <section className="card">
        <h2>{t('articles.pages.byline')}</h2>
        {state.byline ? <div className="byline" dangerouslySetInnerHTML={{ __html: state.byline }} /> : <p>{t('articles.pages.bylineNone')}</p>}
        <a href={href('/articles/settings')}>{t('articles.pages.bylineEdit')}</a>
      </section>
      <details className="panel" id="editor-guidelines" open={state.guidelinesOpen}>
        <summary>{t('articles.pages.guidelines')}</summary>
        <Paragraphs text={community.article_guidelines ?? ''} />
      </details>
      <section className="card">
        <h2>{t('articles.pages.reminders')}</h2>
        <ul>
          <li>{t('articles.pages.reminder1')}</li>
          <li>{t('articles.pages.reminder2')}</li>
          <li>{t('articles.pages.reminder3')}</li>
        </ul>
      </section>
      {state.article ? <FeedbackThread articleId={state.article.id} remarks={state.remarks} older={state.olderFeedback} error={state.errors.feedback} text={state.feedbackText} /> : null}
    </aside>
  );
}

function Layout({ state, children, back = true }: { state: EditorState; children: ReactNode; back?: boolean }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <div className="editor">
      <div className="editor-main">
        <Island
          name="SidebarToggle"
          props={{ target: 'editor-sidebar', openLabel: t('articles.pages.sidebarOpen'), closeLabel: t('articles.pages.sidebarClose'), openAtLoad: state.guidelinesOpen }}
        />
        {back ? (
          <p>
            <a href={href('/articles')}>{t('articles.pages.back')}</a>
          </p>
        ) : null}
        {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
        {children}
      </div>
      <Sidebar state={state} />
    </div>
  );
}

/**
 * The editor page: the ArticleEditor island, which without JavaScript is a form with a title field and
 * a plain body field (saved and counted on the server), and with it the rich-text editor with autosave.
 */
export function EditorForm({ state }: { state: EditorState }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const k = (key: string) => t(`articles.pages.${key}`);
  const e = (key: string) => t(`articles.errors.${key}`);
  const labels: ArticleEditorLabels = {
    title: k('title'),
    body: k('body'),
    bodyHint: k('bodyHint'),
    wordCount: t('articles.pages.wordCount', { n: '{n}' }),
    save: k('save'),
    saveExit: k('saveExit'),
    back: k('back'),
    submitHeading: k('submitHeading'),
    agreeSubmit: k('agreeSubmit'),
    submit: k('submit'),
    saving: k('saving'),
    autosaved: t('articles.pages.autosaved', { time: '{time}' }),
    offline: k('offline'),
    saveError: e('save'),
    retry: k('retry'),
    titleRequired: e('titleRequired'),
    titleTooLong: e('titleTooLong'),
    bodyTooShort: e('bodyTooShort'),
    bodyTooLong: e('bodyTooLong'),
    bylineMissing: e('bylineMissing'),
    bylineEdit: k('bylineEdit'),
    blackout: state.blackout?.need ?? '',
    notEditable: e('notEditableKeepText'),
    signedOut: e('signedOut'),
    applicationRequired: e('applicationRequiredKeepText'),
    agreementRequired: e('agreementRequired'),
    agreementHeading: k('submitAgreementHeading'),
    agreementIntro: k('submitAgreementIntro'),
    agreementLink: k('submitAgreementLink'),
    confirm: k('confirm'),
    submitNeeds: k('submitNeeds'),
    toolbar: k('toolbar'),
    bold: k('bold'),
    italic: k('italic'),
    underline: k('underline'),
    heading: k('heading'),
    subheading: k('subheading'),
    bulletList: k('bulletList'),
    numberedList: k('numberedList'),
    link: k('link'),
    unlink: k('unlink'),
    linkUrl: k('linkUrl'),
    linkInvalid: k('linkInvalid'),
    apply: k('linkApply'),
    cancel: k('cancel'),
  };
  return (
    <Layout state={state} back={false}>
      <h1>{t('articles.pages.editorTitle')}</h1>
      {/* Once: a refused submit already says it as the form's error. */}
      {state.blackout && state.errors.form !== state.blackout.notice ? <Alert kind="info">{state.blackout.notice}</Alert> : null}
      <Island
        name="ArticleEditor"
        props={{
          action: href('/articles/edit'),
          graphqlUrl: href('/graphql'),
          backHref: href('/articles'),
          settingsHref: href('/articles/settings'),
          agreementHref: href('/articles/agreement'),
          csrf: csrfToken,
          articleId: state.article?.id ?? null,
          title: state.title,
          content: state.content,
          plainBody: state.body,
          wordCount: state.wordCount,
          savedAt: state.article ? new Date(state.article.revision_updated_at ?? state.article.updated_at).toISOString() : null,
          bylineSaved: state.byline !== null,
          blackout: state.blackout !== null,
          agreed: state.agreed,
          locked: state.locked,
          errors: state.errors,
          locale: 'en-US',
          labels,
        }}
      />
    </Layout>
  );
}

/** READY_TO_APPROVE: a read-only preview with Approve; FIRST_ROUND_EDIT / FINAL_EDIT: the editors-at-work notice. */
export function EditorReadOnly({ state, approve }: { state: EditorState; approve: boolean }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const article = state.article!;
  return (
    <Layout state={state}>
      {approve ? null : (
        <>
          <Alert kind="info">{t('articles.pages.editorsAtWork')}</Alert>
          <Island name="StatusWatch" props={{ url: href('/articles/edit/status'), status: article.status, finished: t('articles.pages.editorsFinished') }} />
        </>
      )}
      <h1>{titleOf(article, t)}</h1>
      <p className="muted">{t('articles.pages.wordCount', { n: article.word_count ?? 0 })}</p>
      <div className="preview" aria-label={t('articles.pages.preview')} dangerouslySetInnerHTML={{ __html: state.preview }} />
      {approve ? (
        <section className="stack submit-box" aria-labelledby="approve-heading">
          <h2 id="approve-heading">{t('articles.pages.approveHeading')}</h2>
          {state.errors.form ? <Alert kind="error">{state.errors.form}</Alert> : null}
          <Island
            name="ConfirmForm"
            props={{
              action: href('/articles/approve'),
              csrf: csrfToken,
              // The version on screen: approving a text the editors changed since is refused.
              hidden: { articleId: String(article.id), revisionId: String(article.current_revision_id ?? '') },
              name: 'agreed',
              checkLabel: t('articles.pages.agreeApprove'),
              buttonLabel: t('articles.pages.approve'),
              error: state.errors.agreed,
              // Spec section 4: approving needs the approval agreement modal.
              modal: {
                open: t('articles.pages.approve'),
                heading: t('articles.pages.approveAgreementHeading'),
                intro: t('articles.pages.approveAgreementIntro'),
                confirm: t('articles.pages.confirm'),
                cancel: t('articles.pages.cancel'),
              },
            }}
          />
        </section>
      ) : null}
    </Layout>
  );
}
