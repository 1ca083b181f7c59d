import { formatDate } from '#shared/format.ts';
import type { BankPickerState } from '#src/features/content-bank/index.ts';
import type { OfferStatus, OffersStaffForm, PartnerRow, StaffOfferDetail, StaffOfferForm, StaffOfferRow } from '#src/features/offers/index.ts';
import { MarketplaceTabs } from '#views/admin/marketplace-tabs.tsx';
import { ActionForm, AdminTabFrame, AdminTable, dateTime, StatusLog, FormError, Pager } from '#views/admin/tab-frame.tsx';
import { BankPicker } from '#views/kit/bank-picker.tsx';
import { CsrfField, Field, FieldNotes, describedBy, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

const STATUSES: readonly OfferStatus[] = ['draft', 'published', 'withdrawn'];
const lastDay = (d: Date) => formatDate(new Date(new Date(d).getTime() - 1));

function Runs({ startsAt, endsAt }: { startsAt: Date | null; endsAt: Date | null }) {
  const { t } = usePage();
  if (startsAt && endsAt) return <>{t('offers.staff.between', { from: formatDate(startsAt), to: lastDay(endsAt) })}</>;
  if (startsAt) return <>{t('offers.staff.from', { date: formatDate(startsAt) })}</>;
  if (endsAt) return <>{t('offers.staff.until', { date: lastDay(endsAt) })}</>;
  return <>{t('offers.staff.always')}</>;
}

/** /admin/marketplace: every offer with its status and how many members redeemed it. */
export function OffersAdmin({ rows, next, after, status, notice }: { rows: StaffOfferRow[]; next: number | null; after: number | null; status: OfferStatus | null; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="offers-admin" heading={t('offers.staff.heading')} tabs={<MarketplaceTabs current="offers" />} notice={notice}>
      <p>
        <a className="button" href={href('/admin/marketplace/offers/new')}>
          {t('offers.staff.newOffer')}
        </a>
      </p>
      <nav aria-label={t('offers.staff.statusFilterLabel')}>
        <ul className="board-links">
          <li>
            <a href={href('/admin/marketplace')} aria-current={status ? undefined : 'page'}>
              {t('offers.staff.allStatuses')}
            </a>
          </li>
          {STATUSES.map((s) => (
            <li key={s}>
              <a href={href(`/admin/marketplace?status=${s}`)} aria-current={status === s ? 'page' : undefined}>
                {t(`offers.staff.status.${s}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <AdminTable prefix="offers.staff" section="offers" columns={['title', 'partner', 'category', 'tier', 'status', 'dates', 'order', 'redemptions']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(`/admin/marketplace/offers/${r.id}`)}>{r.title}</a>
              {r.featured ? <span className="muted"> · {t('offers.staff.featuredMark')}</span> : null}
            </td>
            <td>{r.partnerName}</td>
            <td>{t(`offers.categories.${r.category}`)}</td>
            <td>{t(`offers.staff.tier.${r.tier}`)}</td>
            <td>{t(`offers.staff.status.${r.status}`)}</td>
            <td>
              <Runs startsAt={r.startsAt} endsAt={r.endsAt} />
            </td>
            <td>{r.position}</td>
            <td>{r.redemptions}</td>
          </tr>
        ))}
      </AdminTable>
      <Pager base="/admin/marketplace" after={after ? String(after) : null} next={next ? String(next) : null} nextLabel={t('offers.staff.more')} firstLabel={t('offers.staff.first')} params={status ? `status=${status}` : ''} />
    </AdminTabFrame>
  );
}

function Select({ id, name, label, value, options, error, placeholder }: { id: string; name: string; label: string; value: string; options: { value: string; label: string }[]; error?: string; placeholder?: string }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error)}>
        {placeholder ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}

/** The offer's form: new or saved; `form` holds what was typed when a save was refused. */
type OfferPicker = BankPickerState & { target?: string };

function OfferForm({ action, values, errors, partners, categories, submit, picker }: { action: string; values: StaffOfferForm; errors: Record<string, string>; partners: PartnerRow[]; categories: readonly string[]; submit: string; picker?: OfferPicker }) {
  const { t } = usePage();
  const href = useHref();
  const f = (k: string) => t(`offers.staff.field.${k}`);
  return (
    <form method="post" action={href(action)} className="offer-form" noValidate>
      <CsrfField />
      {errors.form ? <FormError form={{ key: 'offer', values: {}, errors }} formKey="offer" /> : null}
      <Select id="offer-partner" name="partnerId" label={f('partnerId')} value={values.partnerId} error={errors.partnerId} placeholder={f('choosePartner')} options={partners.map((p) => ({ value: String(p.id), label: p.name }))} />
      <Field id="offer-title" name="title" label={f('title')} defaultValue={values.title} error={errors.title} maxLength={200} />
      <Field id="offer-value" name="valueLine" label={f('valueLine')} hint={f('valueLineHint')} defaultValue={values.valueLine} error={errors.valueLine} maxLength={200} />
      <TextArea id="offer-description" name="description" label={f('description')} hint={f('descriptionHint')} value={values.description} error={errors.description} rows={6} />
      <Select id="offer-category" name="category" label={f('category')} value={values.category} error={errors.category} placeholder={f('chooseCategory')} options={categories.map((c) => ({ value: c, label: t(`offers.categories.${c}`) }))} />
      <Select id="offer-tier" name="tier" label={f('tier')} value={values.tier} error={errors.tier} options={['everyone', 'exec'].map((v) => ({ value: v, label: t(`offers.staff.tier.${v}`) }))} />
      <Select id="offer-redemption" name="redemption" label={f('redemption')} value={values.redemption} error={errors.redemption} options={['code', 'link', 'concierge'].map((v) => ({ value: v, label: t(`offers.staff.redemption.${v}`) }))} />
      <Field id="offer-code" name="code" label={f('code')} hint={f('codeHint')} defaultValue={values.code} error={errors.code} maxLength={100} />
      <Field id="offer-link" name="link" type="url" label={f('link')} hint={f('linkHint')} defaultValue={values.link} error={errors.link} />
      <TextArea id="offer-terms" name="terms" label={f('terms')} value={values.terms} error={errors.terms} rows={4} />
      <Field id="offer-starts" name="startsAt" type="date" label={f('startsAt')} hint={f('datesHint')} defaultValue={values.startsAt} error={errors.startsAt} />
      <Field id="offer-ends" name="endsAt" type="date" label={f('endsAt')} defaultValue={values.endsAt} error={errors.endsAt} />
      <div className="field field-check">
        <input id="offer-featured" type="checkbox" name="featured" defaultChecked={values.featured} />
        <label htmlFor="offer-featured">{f('featured')}</label>
      </div>
      <Field id="offer-position" name="position" type="number" min={0} max={10000} label={f('position')} hint={f('positionHint')} defaultValue={values.position} error={errors.position} />
      <button type="submit" className="button">
        {submit}
      </button>
      <BankPicker
        id="offer-bank"
        picker={picker}
        target={picker?.target}
        targets={[
          { value: 'description', label: t('contentBank.picker.targets.description') },
          { value: 'link', label: t('contentBank.picker.targets.link') },
        ]}
      />
    </form>
  );
}

/** /admin/marketplace/offers/new */
export function OfferNew({ values, errors, partners, categories, picker }: { values: StaffOfferForm; errors: Record<string, string>; partners: PartnerRow[]; categories: readonly string[]; picker?: OfferPicker }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="offers-admin" heading={t('offers.staff.newTitle')} tabs={<MarketplaceTabs current="offers" />}>
      <p>
        <a href={href('/admin/marketplace')}>{t('offers.staff.backToList')}</a>
      </p>
      <OfferForm action="/admin/marketplace/offers" values={values} errors={errors} partners={partners} categories={categories} submit={t('offers.staff.create')} picker={picker} />
    </AdminTabFrame>
  );
}

/** /admin/marketplace/offers/{id}: the form, the status and its log, and who redeemed it. */
export function OfferEdit({ offer, form, partners, categories, notice, moves, picker }: { offer: StaffOfferDetail; form?: OffersStaffForm; partners: PartnerRow[]; categories: readonly string[]; notice?: string; moves: readonly OfferStatus[]; picker?: OfferPicker }) {
  const { t } = usePage();
  const href = useHref();
  const typed = form?.key === 'offer' ? form : undefined;
  const values: StaffOfferForm = typed ? { ...offer.form, ...typed.values, featured: typed.values.featured === 'true' } : offer.form;
  const status = (s: string) => t(`offers.staff.status.${s}`);
  return (
    <AdminTabFrame className="offers-admin" heading={t('offers.staff.editTitle')} tabs={<MarketplaceTabs current="offers" />} notice={notice}>
      <p className="board-links">
        <a href={href('/admin/marketplace')}>{t('offers.staff.backToList')}</a> <a href={href(`/offers/${offer.id}`)}>{t('offers.staff.preview')}</a>
      </p>
      <section aria-labelledby="offer-status">
        <h2 id="offer-status">{t('offers.staff.statusHeading')}</h2>
        <p>{t('offers.staff.statusNow', { status: status(offer.status) })}</p>
        <FormError form={form} formKey="status" />
        {moves.map((to) => (
          <ActionForm key={to} action={`/admin/marketplace/offers/${offer.id}/status`} label={t(`offers.staff.move.${to}`)} fields={{ to }} secondary={to === 'withdrawn'} />
        ))}
      </section>
      <section aria-labelledby="offer-redemptions">
        <h2 id="offer-redemptions">{t('offers.staff.redemptions.heading')}</h2>
        <p>{t('offers.staff.redemptions.total', { count: offer.redemptions.total })}</p>
        {offer.redemptions.total ? (
          <p>
            <a href={href(`/admin/marketplace/offers/${offer.id}/redemptions.csv`)} download>
              {t('offers.staff.redemptions.csv')}
            </a>
          </p>
        ) : null}
        <AdminTable prefix="offers.staff.redemptions" section="byWeek" columns={['week', 'count']} empty={offer.redemptions.byWeek.length === 0}>
          {offer.redemptions.byWeek.map((w) => (
            <tr key={w.week}>
              <td>{formatDate(new Date(`${w.week}T00:00:00Z`))}</td>
              <td>{w.count}</td>
            </tr>
          ))}
        </AdminTable>
        {offer.redemptions.recent.length ? (
          <AdminTable prefix="offers.staff.redemptions" section="recent" columns={['name', 'email', 'at']} empty={false}>
            {offer.redemptions.recent.map((r, i) => (
              <tr key={i}>
                <td>{r.name}</td>
                <td>{r.email}</td>
                <td>{dateTime(r.at)}</td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>
      <section aria-labelledby="offer-edit">
        <h2 id="offer-edit">{t('offers.staff.editTitle')}</h2>
        <OfferForm action={`/admin/marketplace/offers/${offer.id}`} values={values} errors={typed?.errors ?? {}} partners={partners} categories={categories} submit={t('offers.staff.save')} picker={picker} />
      </section>
      <StatusLog id="offer-log" prefix="offers.staff" events={offer.events} status={status} nobody={t('offers.staff.log.unknown')} />
    </AdminTabFrame>
  );
}
