import { formatDate } from '#src/core/format.ts';
import { ARTICLE_STATUSES, type ArticleStatus } from '#src/features/articles/rules.ts';
import type { ArticleRow, BoardQuery } from '#src/features/articles/service.ts';
import { Alert, CsrfField } from '#views/auth/parts.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

type BoardRow = ArticleRow & { author_first: string; author_last: string; editor_first: string | null; editor_last: string | null };
type Editor = { id: number; first_name: string; last_name: string };

/** The community's staff as <option>s: the board's editor filter and the assign-editor choice. */
function EditorOptions({ editors }: { editors: Editor[] }) {
  return (
    <>
      {editors.map((e) => (
        <option key={e.id} value={e.id}>
          {e.first_name} {e.last_name}
        </option>
      ))}
    </>
  );
}

export function ArticlesBoard({
  rows,
  query,
  editors,
  tooMany,
  next,
}: {
  rows: BoardRow[];
  query: BoardQuery;
  editors: Editor[];
  tooMany: boolean;
  next: string | null;
}) {
  const { t } = usePage();
  const href = useHref();
  const params = (extra: Record<string, string>) => {
    const p = new URLSearchParams();
    if (query.status) p.set('status', query.status);
    if (query.editor) p.set('editor', String(query.editor));
    if (query.q) p.set('q', query.q);
    if (query.sort) p.set('sort', query.sort);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return p.toString();
  };
  return (
    <section>
      <h1>{t('admin.articles.heading')}</h1>
      <form method="get" action={href('/admin/articles')} className="filters" aria-label={t('admin.articles.filters')}>
        <div className="field">
          <label htmlFor="f-status">{t('admin.articles.status')}</label>
          <select id="f-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">{t('admin.articles.anyStatus')}</option>
            {ARTICLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-editor">{t('admin.articles.editor')}</label>
          <select id="f-editor" name="editor" defaultValue={query.editor ? String(query.editor) : ''}>
            <option value="">{t('admin.articles.anyEditor')}</option>
            <option value="none">{t('admin.articles.unassigned')}</option>
            <EditorOptions editors={editors} />
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-q">{t('admin.articles.search')}</label>
          <input id="f-q" name="q" type="search" defaultValue={query.q ?? ''} maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor="f-sort">{t('admin.articles.sort')}</label>
          <select id="f-sort" name="sort" defaultValue={query.sort ?? 'newest'}>
            <option value="newest">{t('admin.articles.newest')}</option>
            <option value="oldest">{t('admin.articles.oldest')}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t('admin.articles.apply')}
        </button>
      </form>
      {tooMany ? <Alert kind="info">{t('admin.articles.tooMany')}</Alert> : null}
      {rows.length === 0 ? (
        <p>{t('admin.articles.none')}</p>
      ) : (
        <table className="board">
          <thead>
            <tr>
              <th scope="col">{t('admin.articles.colTitle')}</th>
              <th scope="col">{t('admin.articles.colMember')}</th>
              <th scope="col">{t('admin.articles.colStatus')}</th>
              <th scope="col">{t('admin.articles.colEditor')}</th>
              <th scope="col">{t('admin.articles.colChanged')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <a href={href(`/admin/articles/${r.id}`)}>{r.title?.trim() || t('articles.pages.untitled')}</a>
                </td>
                <td>
                  {r.author_first} {r.author_last}
                </td>
                <td>{r.status}</td>
                <td>{r.editor_first ? `${r.editor_first} ${r.editor_last}` : t('admin.articles.unassigned')}</td>
                <td>{formatDate(r.status_updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next ? (
        <p>
          <a href={href(`/admin/articles?${params({ after: next })}`)}>{t('admin.articles.next')}</a>
        </p>
      ) : null}
    </section>
  );
}

type Revision = { id: number; author_id: number; title: string; content: string; word_count: number; created_at: Date };
type Event = { id: number; from_status: string; to_status: string; actor_id: number | null; note: string | null; created_at: Date };
type Scan = { status: string; aggregated_score: number | null; identical_words: number | null; minor_changed_words: number | null; related_meaning_words: number | null; total_words: number | null; total_excluded: number | null } | undefined;

export function ArticleDetail({
  article,
  editors,
  next,
  revisions,
  events,
  scan,
  errors,
  notice,
}: {
  article: ArticleRow;
  editors: Editor[];
  next: readonly ArticleStatus[];
  revisions: Revision[];
  events: Event[];
  scan: Scan;
  errors: Record<string, string>;
  notice?: string;
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
        {article.status} · {t('admin.articles.words', { n: article.word_count ?? 0 })}
      </p>
      <div className="admin-actions">
        <form method="post" action={href(`/admin/articles/${article.id}/editor`)} className="stack">
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
              <select id="to" name="to">
                {next.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <div className={errors.scheduledDate ? 'field field-invalid' : 'field'}>
              <label htmlFor="scheduledDate">{t('admin.articles.scheduledDate')}</label>
              <input id="scheduledDate" name="scheduledDate" type="datetime-local" aria-invalid={errors.scheduledDate ? true : undefined} aria-describedby={errors.scheduledDate ? 'scheduledDate-error' : undefined} />
              {errors.scheduledDate ? <p className="field-error" id="scheduledDate-error">{errors.scheduledDate}</p> : null}
            </div>
            <div className={errors.articleUrl ? 'field field-invalid' : 'field'}>
              <label htmlFor="articleUrl">{t('admin.articles.articleUrl')}</label>
              <input id="articleUrl" name="articleUrl" type="url" aria-invalid={errors.articleUrl ? true : undefined} aria-describedby={errors.articleUrl ? 'articleUrl-error' : undefined} />
              {errors.articleUrl ? <p className="field-error" id="articleUrl-error">{errors.articleUrl}</p> : null}
            </div>
            <div className="field">
              <label htmlFor="note">{t('admin.articles.note')}</label>
              <input id="note" name="note" maxLength={500} />
            </div>
            <button type="submit" className="button">
              {t('admin.articles.moveSave')}
            </button>
          </form>
        ) : null}
      </div>
      <h2>{t('admin.articles.scan')}</h2>
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
            ? scan.status
            : t('admin.articles.scanNone')}
      </p>
      <h2>{t('admin.articles.history')}</h2>
      <ol className="plain">
        {events.map((e) => (
          <li key={e.id}>
            {formatDate(e.created_at)}: {e.from_status} → {e.to_status}
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
