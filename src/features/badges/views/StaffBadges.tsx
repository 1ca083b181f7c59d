import { formatDate } from '#shared/format.ts';
import type { BadgeStaffForm, StaffBadgesData } from '#src/features/badges/types.ts';
import { MarketplaceTabs } from '#views/admin/marketplace-tabs.tsx';
import { AdminTabFrame, AdminTable, dateTime, Pager, typedIn, type TabForm } from '#views/admin/tab-frame.tsx';
import { describedBy, CsrfField, Field, FieldNotes } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Button } from '#views/kit/button.tsx';

const P = 'badges.staff';

/**
 * /admin/marketplace/badges: award a staff badge (the member by id or email, found by a search), the
 * staff badges held (each with its revoke form and an optional reason), and the log of awards and
 * revocations. Plain forms: each posts, then comes back with its notice, or with its messages beside
 * the fields and what was typed.
 */
export function StaffBadgesPage({ data, notice, form, member }: { data: StaffBadgesData; notice?: string; form?: BadgeStaffForm; member?: string }) {
  const { t } = usePage();
  const href = useHref();
  const tabForm = form as TabForm | undefined;
  const award = (name: string) => typedIn(tabForm, 'award', name);
  const memberValue = award('member').value ?? member ?? '';
  const badgeValue = award('badge').value ?? '';
  const badgeError = award('badge').error;
  // A revocation refused for a row no longer listed (revoked meanwhile) says so above the page.
  const rowKeys = new Set(data.holders.map((h) => `revoke-${h.userId}-${h.badge}`));
  const pageError = form?.errors.form ?? (form && form.key.startsWith('revoke-') && !rowKeys.has(form.key) ? Object.values(form.errors)[0] : undefined);
  return (
    <AdminTabFrame className="marketplace-admin" heading={t(`${P}.heading`)} tabs={<MarketplaceTabs current="badges" />} notice={notice} error={pageError}>
      <p className="muted">{t(`${P}.intro`)}</p>

      <h2 id="award">{t(`${P}.award.heading`)}</h2>
      <form method="post" action={href('/admin/marketplace/badges/award')} className="stack">
        <CsrfField />
        <Field id="award-member" name="member" label={t(`${P}.award.member`)} hint={t(`${P}.award.memberHint`)} error={award('member').error} defaultValue={memberValue} maxLength={320} autoComplete="off" required />
        <div className={badgeError ? 'field field-invalid' : 'field'}>
          <label htmlFor="award-badge">{t(`${P}.award.badge`)}</label>
          <select id="award-badge" name="badge" defaultValue={badgeValue} aria-invalid={badgeError ? true : undefined} aria-describedby={describedBy('award-badge', badgeError)}>
            {data.badges.map((b) => (
              <option key={b.key} value={b.key}>
                {b.name}
              </option>
            ))}
          </select>
          <FieldNotes id="award-badge" error={badgeError} />
        </div>
        <Field id="award-reason" name="reason" label={t(`${P}.award.reason`)} hint={t(`${P}.award.reasonHint`)} error={award('reason').error} defaultValue={award('reason').value ?? ''} maxLength={600} />
        <Button>
          {t(`${P}.award.submit`)}
        </Button>
      </form>

      <h2 id="find">{t(`${P}.find.heading`)}</h2>
      <form method="get" action={href('/admin/marketplace/badges')} className="filters">
        <Field id="find-q" name="q" type="search" label={t(`${P}.find.search`)} error={typedIn(tabForm, 'find', 'q').error} defaultValue={typedIn(tabForm, 'find', 'q').value ?? data.q} maxLength={400} />
        <Button>
          {t(`${P}.find.submit`)}
        </Button>
      </form>
      {data.candidates === null ? null : data.candidates.length === 0 ? (
        <p role="status">{t(`${P}.find.noMatch`)}</p>
      ) : (
        <ul className="plain badge-candidates">
          {data.candidates.map((m) => (
            <li key={m.userId}>
              <span>
                {m.name} <span className="muted">{m.email}</span> <span className="muted">· {t(`${P}.find.id`, { id: m.userId })}</span>
                {m.staffBadges.length ? <span className="muted"> · {t(`${P}.find.holds`, { badges: m.staffBadges.join(', ') })}</span> : null}
              </span>{' '}
              <a href={href(`/admin/marketplace/badges?member=${m.userId}#award`)} aria-label={t(`${P}.find.pick`, { name: m.name })}>
                {t(`${P}.find.pickLink`)}
              </a>
            </li>
          ))}
        </ul>
      )}

      <h2 id="holders">{t(`${P}.holders.heading`)}</h2>
      <AdminTable prefix={P} section="holders" columns={['member', 'badge', 'since', 'revoke']} empty={data.holders.length === 0}>
        {data.holders.map((h) => {
          const key = `revoke-${h.userId}-${h.badge}`;
          const reason = typedIn(tabForm, key, 'reason');
          const fieldId = `${key}-reason`;
          return (
            <tr key={key}>
              <th scope="row">
                {h.name} <span className="muted">{h.email}</span>
              </th>
              <td>{h.badgeName}</td>
              <td>{formatDate(h.awardedAt)}</td>
              <td>
                <form method="post" action={href('/admin/marketplace/badges/revoke')} className="inline-form">
                  <CsrfField />
                  <input type="hidden" name="member" value={String(h.userId)} />
                  <input type="hidden" name="badge" value={h.badge} />
                  <div className={reason.error ? 'field field-invalid' : 'field'}>
                    <label htmlFor={fieldId} className="visually-hidden">
                      {t(`${P}.holders.reason`, { badge: h.badgeName, name: h.name })}
                    </label>
                    <input id={fieldId} name="reason" defaultValue={reason.value ?? ''} maxLength={600} aria-invalid={reason.error ? true : undefined} aria-describedby={describedBy(fieldId, reason.error)} />
                    <FieldNotes id={fieldId} error={reason.error ?? (form?.key === key ? form.errors.badge ?? form.errors.member : undefined)} />
                  </div>
                  <button type="submit" className="button button-secondary" aria-label={t(`${P}.holders.submitLabel`, { badge: h.badgeName, name: h.name })}>
                    {t(`${P}.holders.submit`)}
                  </button>
                </form>
              </td>
            </tr>
          );
        })}
      </AdminTable>

      <h2 id="log">{t(`${P}.log.heading`)}</h2>
      <AdminTable prefix={P} section="log" columns={['when', 'action', 'badge', 'member', 'by', 'reason']} empty={data.log.length === 0}>
        {data.log.map((r) => (
          <tr key={r.id}>
            <td>{dateTime(r.at)}</td>
            <td>{t(`${P}.log.${r.action}`)}</td>
            <td>{r.badgeName}</td>
            <th scope="row">{r.member}</th>
            <td>{r.actor ?? '—'}</td>
            <td>{r.reason}</td>
          </tr>
        ))}
      </AdminTable>
      <Pager base="/admin/marketplace/badges" after={data.after} next={data.next} nextLabel={t(`${P}.log.next`)} firstLabel={t(`${P}.log.first`)} />
    </AdminTabFrame>
  );
}
