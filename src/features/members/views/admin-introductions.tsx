import { formatDate } from '#shared/format.ts';
import { CsrfField, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { usePage, useHref } from '#views/layout/page-context.tsx';
import { MemberLine, StatusBadge, type IntroductionItem } from '#src/features/members/views/Introductions.tsx';

/** What was typed in one request's review forms, and their messages (the form comes back with them). */
export type ReviewForm = { id: number; note?: string; reason?: string; errors: { note?: string; reason?: string; form?: string } };

const time = (d: Date) => d.toISOString().slice(11, 16);

/** Who asked to meet whom (the pending and the reviewed requests alike). */
function People({ r }: { r: IntroductionItem }) {
  const { t } = usePage();
  return (
    <dl className="intro-people">
      <div>
        <dt>{t('introductions.admin.requester')}</dt>
        <dd>
          <MemberLine member={r.requester} />
        </dd>
      </div>
      <div>
        <dt>{t('introductions.admin.target')}</dt>
        <dd>
          <MemberLine member={r.target} />
        </dd>
      </div>
    </dl>
  );
}

/** When the request was made, and why. */
function Requested({ r }: { r: IntroductionItem }) {
  const { t } = usePage();
  return (
    <>
      <p className="muted">{t('introductions.admin.requestedAt', { date: formatDate(r.createdAt), time: time(r.createdAt) })}</p>
      <p className="intro-label">{t('introductions.admin.reason')}</p>
      <p className="intro-text">{r.reason}</p>
    </>
  );
}

function Pending({ r, form }: { r: IntroductionItem; form?: ReviewForm }) {
  const { t } = usePage();
  const href = useHref();
  const errors = form?.errors ?? {};
  const noteId = `note-${r.id}`;
  const reasonId = `reason-${r.id}`;
  return (
    <li className="card intro-card" id={`request-${r.id}`}>
      <h3 className="visually-hidden">{`${r.requester.name} → ${r.target.name}`}</h3>
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <People r={r} />
      <Requested r={r} />
      <div className="intro-review">
        <form method="post" action={href(`/admin/members/introductions/${r.id}/approve`)} className="stack" noValidate>
          <CsrfField />
          <div className={errors.note ? 'field field-invalid' : 'field'}>
            <label htmlFor={noteId}>{t('introductions.admin.note')}</label>
            <textarea id={noteId} name="note" rows={3} defaultValue={form?.note ?? ''} aria-invalid={errors.note ? true : undefined} aria-describedby={describedBy(noteId, errors.note)} />
            <FieldNotes id={noteId} error={errors.note} />
          </div>
          <button type="submit" className="button">
            {t('introductions.admin.approve')}
          </button>
        </form>
        <form method="post" action={href(`/admin/members/introductions/${r.id}/decline`)} className="stack" noValidate>
          <CsrfField />
          <div className={errors.reason ? 'field field-invalid' : 'field'}>
            <label htmlFor={reasonId}>{t('introductions.admin.declineReason')}</label>
            <textarea
              id={reasonId}
              name="reason"
              rows={3}
              required
              defaultValue={form?.reason ?? ''}
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={describedBy(reasonId, errors.reason)}
            />
            <FieldNotes id={reasonId} error={errors.reason} />
          </div>
          <button type="submit" className="button button-secondary">
            {t('introductions.admin.decline')}
          </button>
        </form>
      </div>
    </li>
  );
}

function Reviewed({ r }: { r: IntroductionItem }) {
  const { t } = usePage();
  const status = t(`introductions.status.${r.status}`);
  const date = formatDate(r.reviewedAt ?? r.createdAt);
  return (
    <li className="card intro-card">
      <h3 className="visually-hidden">{`${r.requester.name} → ${r.target.name}`}</h3>
      <People r={r} />
      <p>
        <StatusBadge status={r.status} />{' '}
        <span className="muted">{r.reviewer ? t('introductions.admin.reviewedBy', { status, name: r.reviewer.name, date }) : t('introductions.admin.reviewedByNobody', { status, date })}</span>
      </p>
      <Requested r={r} />
      <p className="intro-label">{t(r.status === 'DECLINED' ? 'introductions.admin.declinedBecause' : 'introductions.admin.staffNote')}</p>
      <p className="intro-text">{r.reviewNote ?? t('introductions.admin.noNote')}</p>
    </li>
  );
}

/** The staff queue of introduction requests: pending oldest first, then the recently reviewed. */
export function IntroductionQueue({ pending, reviewed, notice, form }: { pending: IntroductionItem[]; reviewed: IntroductionItem[]; notice?: string; form?: ReviewForm }) {
  const { t } = usePage();
  return (
    <section className="page-admin">
      <h1>{t('introductions.admin.heading')}</h1>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {form?.errors.form && !pending.some((r) => r.id === form.id) ? <Alert kind="error">{form.errors.form}</Alert> : null}
      <h2>{t('introductions.admin.pending', { count: pending.length })}</h2>
      {pending.length === 0 ? <EmptyState title={t('introductions.admin.pendingEmpty')} /> : null}
      <ul className="plain intro-list">
        {pending.map((r) => (
          <Pending key={r.id} r={r} form={form?.id === r.id ? form : undefined} />
        ))}
      </ul>
      <h2>{t('introductions.admin.reviewed')}</h2>
      {reviewed.length === 0 ? <EmptyState title={t('introductions.admin.reviewedEmpty')} /> : null}
      <ul className="plain intro-list">
        {reviewed.map((r) => (
          <Reviewed key={r.id} r={r} />
        ))}
      </ul>
    </section>
  );
}
