import type { ReactNode } from 'react';
import { formatDate } from '#src/core/format.ts';
import type { ArticleRow } from '#src/features/articles/queries.ts';
import type { BylineField } from '#src/features/articles/byline-terms.ts';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Island } from '#views/layout/Island.tsx';
import type { ArticleEditorLabels } from '#islands/ArticleEditor.tsx';
import { AUTHOR_EDITABLE, EDITORS_AT_WORK, type ArticleStatus } from '#src/features/articles/rules.ts';


type Remark = { id: number; remark: string; createdAt: Date; hasRead: boolean; author: { id: number; snapshot: { name: string } } };

function ArticlesNav() {
  const { t, currentPath } = usePage();
  const href = useHref();
  const items = [
    { path: '/articles', label: t('articles.pages.dashboardTitle') },
    { path: '/articles/published', label: t('articles.pages.published') },
    { path: '/articles/guidelines', label: t('articles.pages.guidelines') },
    { path: '/articles/agreement', label: t('articles.pages.agreement') },
    { path: '/articles/settings', label: t('articles.pages.settings') },
  ];
  return (
    <nav aria-label={t('articles.pages.dashboardTitle')} className="subnav">
      <ul>
        {items.map((i) => (
          <li key={i.path}>
            <a href={href(i.path)} aria-current={currentPath === i.path ? 'page' : undefined}>
              {i.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\s*\n/).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </>
  );
}

/**
 * The product agreement gate: a page of its own without JavaScript; with it, a modal over the empty
 * dashboard (rendered hidden here, shown behind the modal by the island).
 */
export function AgreementGate({ error, guidelines = false }: { error?: string; guidelines?: boolean }) {
  const { t, community, csrfToken } = usePage();
  const href = useHref();
  return (
    <>
      <Island
        name="AgreementDialog"
        props={{
          heading: t('articles.pages.gateHeading'),
          intro: t('articles.pages.gateIntro'),
          terms: community.article_terms ?? '',
          form: {
            action: href('/articles/agreement'),
            csrf: csrfToken,
            name: 'acknowledge',
            checkLabel: t('articles.pages.acknowledge'),
            buttonLabel: t('articles.pages.confirm'),
            error,
            ...(guidelines ? { hidden: { guidelines: 'true' } } : {}),
          },
          notNow: { href: href('/'), label: t('articles.pages.notNow') },
          behindId: 'gate-behind',
        }}
      />
      <div id="gate-behind" hidden>
        <Dashboard inFlight={undefined} pending={[]} published={0} guidelinesOpen={guidelines} />
      </div>
    </>
  );
}

/**
 * The dashboard's link to the editor, only where the editor page opens for this status (otherwise it
 * sends the member back to the dashboard): the key of its label, or null.
 */
function editorLinkLabel(status: ArticleStatus): string | null {
  if (AUTHOR_EDITABLE.includes(status)) return 'continue';
  if (EDITORS_AT_WORK.includes(status)) return 'open';
  if (status === 'READY_TO_APPROVE') return 'reviewApprove';
  return null;
}

function titleOf(a: Pick<ArticleRow, 'title'>, t: (k: string) => string) {
  return a.title?.trim() || t('articles.pages.untitled');
}

export function Dashboard({
  inFlight,
  pending,
  published,
  guidelinesOpen,
  amplify = [],
}: {
  inFlight: ArticleRow | undefined;
  pending: ArticleRow[];
  published: number;
  guidelinesOpen: boolean;
  /** Published articles that can be amplified (empty when the community offers no packages): the Amplify card. */
  amplify?: { id: number; title: string | null }[];
}) {
  const { t, community } = usePage();
  const href = useHref();
  const editorLink = inFlight ? editorLinkLabel(inFlight.status) : null;
  return (
    <section>
      <ArticlesNav />
      <h1>{t('articles.pages.dashboardHeading')}</h1>
      <div className="cards">
        <article className="card">
          <h2>{t('articles.pages.inFlight')}</h2>
          {inFlight ? (
            <>
              <p className="card-title">{titleOf(inFlight, t)}</p>
              <p>{t(`articles.pages.status.${inFlight.status}`)}</p>
              <p className="muted">{t('articles.pages.wordCount', { n: inFlight.word_count ?? 0 })}</p>
              {editorLink ? (
                <a className="button" href={href('/articles/edit')}>
                  {t(`articles.pages.${editorLink}`)}
                </a>
              ) : null}
            </>
          ) : (
            <>
              <p>{t('articles.pages.noneInFlight')}</p>
              <a className="button" href={community.article_application_url ?? href('/articles/edit')}>
                {t('articles.pages.start')}
              </a>
            </>
          )}
        </article>
        <article className="card">
          <h2>{t('articles.pages.pending')}</h2>
          {pending.length === 0 ? <p>{t('articles.pages.pendingNone')}</p> : null}
          <ul className="plain">
            {pending.map((a) => (
              <li key={a.id}>
                <strong>{titleOf(a, t)}</strong>
                <br />
                {a.status === 'SCHEDULED' && a.scheduled_date ? t('articles.pages.scheduledFor', { date: formatDate(a.scheduled_date) }) : t('articles.pages.goesLive')}
              </li>
            ))}
          </ul>
        </article>
        <article className="card">
          <h2>{t('articles.pages.published')}</h2>
          <p>{published === 0 ? t('articles.pages.publishedNone') : <a href={href('/articles/published')}>{t('articles.pages.publishedTitle')} ({published})</a>}</p>
        </article>
        {amplify.length ? (
          <article className="card">
            <h2>{t('amplify.dashboard.heading')}</h2>
            <p>{t('amplify.dashboard.intro')}</p>
            <ul className="plain">
              {amplify.map((a) => (
                <li key={a.id}>
                  <a href={href(`/articles/amplify/${a.id}`)}>{t('amplify.dashboard.link', { title: titleOf(a, t) })}</a>
                </li>
              ))}
            </ul>
          </article>
        ) : null}
      </div>
      <details className="panel" open={guidelinesOpen}>
        <summary>{t('articles.pages.guidelinesTitle')}</summary>
        <Paragraphs text={community.article_guidelines ?? ''} />
      </details>
    </section>
  );
}

export function GuidelinesPage() {
  const { t, community } = usePage();
  return (
    <section>
      <ArticlesNav />
      <h1>{t('articles.pages.guidelinesTitle')}</h1>
      <Paragraphs text={community.article_guidelines ?? ''} />
    </section>
  );
}

export function AgreementPage({ acceptedAt }: { acceptedAt: Date }) {
  const { t, community } = usePage();
  return (
    <section>
      <ArticlesNav />
      <h1>{t('articles.pages.agreementTitle')}</h1>
      <Alert kind="info">{t('articles.pages.agreementAccepted', { date: formatDate(acceptedAt) })}</Alert>
      <div className="terms">
        <Paragraphs text={community.article_terms ?? ''} />
      </div>
    </section>
  );
}

export function PublishedPage({ articles, amplify = false }: { articles: ArticleRow[]; /** The community sells amplification: an Amplify link each. */ amplify?: boolean }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section>
      <ArticlesNav />
      <h1>{t('articles.pages.publishedTitle')}</h1>
      {articles.length === 0 ? <p>{t('articles.pages.publishedNone')}</p> : null}
      <ul className="plain">
        {articles.map((a) => (
          <li key={a.id}>
            <strong>{titleOf(a, t)}</strong> · {a.published_date ? formatDate(a.published_date) : null}
            {a.article_url ? (
              <>
                {' '}
                ·{' '}
                <a href={a.article_url} rel="noopener" className="live-address">
                  {a.article_url}
                </a>
              </>
            ) : null}
            {amplify ? (
              <>
                {' · '}
                <a href={href(`/articles/amplify/${a.id}`)}>{t('amplify.dashboard.link', { title: titleOf(a, t) })}</a>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BylineForm({ byline, error, notice }: { byline: BylineField; error?: string; notice?: string }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const k = (key: string) => t(`articles.pages.${key}`);
  return (
    <Island
      name="BylineEditor"
      props={{
        action: href('/articles/settings'),
        csrf: csrfToken,
        html: byline.html,
        plain: byline.plain,
        error,
        notice,
        labels: {
          label: k('bylineLabel'),
          hint: k('bylineHintPlain'),
          hintRich: k('bylineHintRich'),
          save: k('bylineSave'),
          count: t('articles.pages.bylineCount', { n: '{n}' }),
          required: t('articles.errors.bylineRequired'),
          tooLong: t('articles.errors.bylineTooLong'),
          tooManyLinks: t('articles.errors.bylineTooManyLinks'),
          link: k('link'),
          unlink: k('unlink'),
          toolbar: k('bylineToolbar'),
          linkUrl: k('linkUrl'),
          linkInvalid: k('linkInvalid'),
          apply: k('linkApply'),
          cancel: k('cancel'),
        },
      }}
    />
  );
}

export function SettingsPage(props: { byline: BylineField; error?: string; notice?: string }) {
  const { t } = usePage();
  return (
    <section>
      <ArticlesNav />
      <h1>{t('articles.pages.settingsTitle')}</h1>
      <BylineForm {...props} />
    </section>
  );
}

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
