import type { MemberQuestionRow, MemberTab } from '#src/features/expert-panels/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { CsrfField } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { DateText, StateBadges } from '#src/features/expert-panels/views/parts.tsx';

export type QuestionListProps = {
  tab: MemberTab;
  tabs: readonly MemberTab[];
  counts: Record<MemberTab, number>;
  rows: MemberQuestionRow[];
  /** The next (older) page's address, or null on the last. */
  olderHref: string | null;
};

/**
 * The list's one polite live region (role="status"). With htmx, marking a question from the list
 * fills it out of band (`hx-swap-oob="innerHTML"`): the region stays in the page, so a screen reader
 * announces the new text.
 */
export function EpLive({ text }: { text?: string }) {
  if (text === undefined) return <p id="ep-live" className="visually-hidden" role="status" />;
  return (
    <p id="ep-live" className="visually-hidden" role="status" hx-swap-oob="innerHTML">
      {text}
    </p>
  );
}

const MARKS = [
  { value: 'cant_answer', label: 'expertPanels.question.cantAnswer' },
  { value: 'ignored', label: 'expertPanels.question.ignore' },
] as const;

/**
 * "Can't answer" / "Ignore" on a row: a plain POST (back to the list with its alert), or with htmx
 * the row alone comes back in its place. A mark the answer already has is not offered again.
 */
function RowMarks({ row, error }: { row: MemberQuestionRow; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  const action = href(`/expert-panels/${row.questionId}/mark`);
  // Refused because the question closed or the answer was picked up meanwhile: the message, no buttons.
  const marks = row.markable ? MARKS.filter((m) => m.value !== row.status) : [];
  return (
    <form method="post" action={action} className="ep-row-marks" hx-post={action} hx-target={`#ep-row-${row.questionId}`} hx-swap="outerHTML">
      <CsrfField />
      {marks.length ? (
        <div className="button-row">
          {marks.map((m) => (
          <button key={m.value} type="submit" name="mark" value={m.value} className="button button-secondary" aria-label={t('expertPanels.list.markLabel', { action: t(m.label), title: row.title })}>
            {t(m.label)}
          </button>
          ))}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** One question of the list (also the htmx answer to marking it, with `error` when that failed). */
export function QuestionRow({ row, error }: { row: MemberQuestionRow; error?: string }) {
  const { t, now } = usePage();
  const href = useHref();
  const past = new Date(row.deadlineAt).getTime() < now.getTime();
  return (
    <li className="ep-row" id={`ep-row-${row.questionId}`}>
      <h3 className="ep-row-title">
        <a href={href(`/expert-panels/${row.questionId}`)}>{row.title}</a>
      </h3>
      <p className="ep-meta">
        <StateBadges status={row.status} closed={row.closed} published={row.roundup !== null} />{' '}
        <span>{t('expertPanels.list.panel', { name: row.panelName })}</span>
      </p>
      <p className="ep-meta muted">
        {past ? (
          <>
            {t('expertPanels.list.deadlinePast', { date: '' })}
            <DateText at={row.deadlineAt} />
          </>
        ) : (
          <>
            {t('expertPanels.list.deadline', { date: '' })}
            <DateText at={row.deadlineAt} />
          </>
        )}
        {row.submittedAt ? (
          <>
            {' · '}
            {t('expertPanels.list.submitted', { date: '' })}
            <DateText at={row.submittedAt} />
          </>
        ) : null}
      </p>
      {row.decisionNote ? <p className="ep-note">{t('expertPanels.list.note', { note: row.decisionNote })}</p> : null}
      {row.roundup ? (
        <p className="ep-meta">
          <a href={href(row.roundup.path)}>{t('expertPanels.list.liveLink', { title: row.roundup.title })}</a>
        </p>
      ) : null}
      {row.markable || error ? <RowMarks row={row} error={error} /> : null}
    </li>
  );
}

/** The member's questions: tabs (with counts), a keyset page of rows, each a link to its question. */
export function QuestionList({ tab, tabs, counts, rows, olderHref }: QuestionListProps) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="ep">
      <h1>{t('expertPanels.list.heading')}</h1>
      <p className="muted">{t('expertPanels.list.intro')}</p>
      <nav aria-label={t('expertPanels.list.tabsLabel')} className="subnav ep-tabs">
        <ul>
          {tabs.map((x) => (
            <li key={x}>
              <a href={href(x === 'open' ? '/expert-panels' : `/expert-panels?tab=${x}`)} aria-current={x === tab ? 'page' : undefined}>
                {t('expertPanels.list.tabCount', { label: t(`expertPanels.list.tabs.${x}`), n: counts[x] })}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <h2 className="visually-hidden">{t(`expertPanels.list.tabs.${tab}`)}</h2>
      {rows.length === 0 ? <EmptyState title={t(`expertPanels.list.empty.${tab}`)} /> : null}
      <ul className="plain ep-rows">
        {rows.map((r) => (
          <QuestionRow key={r.questionId} row={r} />
        ))}
      </ul>
      {olderHref ? (
        <nav className="notif-pager" aria-label={t('expertPanels.list.pages')}>
          <a href={href(olderHref)}>{t('expertPanels.list.older')}</a>
        </nav>
      ) : null}
      <EpLive />
    </section>
  );
}
