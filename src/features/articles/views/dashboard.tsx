/** The member's articles pages: the dashboard, the agreement gate, the guidelines, the agreement, the published list. */
import { formatDate } from '#shared/format.ts';
import type { ArticleRow, EditorLink } from '#src/features/articles/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Island } from '#views/layout/Island.tsx';
import { ArticlesNav, Paragraphs, titleOf } from '#src/features/articles/views/parts.tsx';

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

export function Dashboard({
  inFlight,
  pending,
  published,
  guidelinesOpen,
  editorLink = null,
  amplify = [],
}: {
  inFlight: ArticleRow | undefined;
  /** The in-flight article's link to the editor (the key of its label; rules.ts editorLinkOf), or none. */
  editorLink?: EditorLink | null;
  pending: ArticleRow[];
  published: number;
  guidelinesOpen: boolean;
  /** Published articles that can be amplified (empty when the community offers no packages): the Amplify card. */
  amplify?: { id: number; title: string | null }[];
}) {
  const { t, community } = usePage();
  const href = useHref();
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
      {articles.length === 0 ? <EmptyState title={t('articles.pages.publishedNone')} /> : null}
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
