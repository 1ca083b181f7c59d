import type { FeaturableItem, FeaturedRow, FeaturedState, FeedLogLine } from '#src/features/feeds/index.ts';
import { formatDate } from '#shared/format.ts';
import { FeedsTabs } from '#views/admin/feeds-tabs.tsx';
import { ActionForm, AdminTabFrame, AdminTable, dateTime, FormError, Pager, typedIn, type TabForm } from '#views/admin/tab-frame.tsx';
import { CsrfField, describedBy, Field, FieldNotes } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Check, FeedLog, StateFilter } from './parts.tsx';

const STATES: readonly FeaturedState[] = ['live', 'expired', 'gone'];
const ITEM_KINDS = ['article', 'roundup', 'offer', 'forum_post'] as const;

export type FeaturedSearch = { kind: string; q: string; found: FeaturableItem[] | null };

/** Step one: the kind of item and words of its title (a GET form: the results come back on this page). */
function SearchForm({ search, forumEnabled }: { search: FeaturedSearch; forumEnabled: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const kinds = ITEM_KINDS.filter((k) => k !== 'forum_post' || forumEnabled);
  return (
    <form method="get" action={href('/admin/feeds/featured')} role="search" className="feature-search">
      <div className="field">
        <label htmlFor="feature-kind">{t('feedsAdmin.featured.field.kind')}</label>
        <select id="feature-kind" name="kind" defaultValue={search.kind || 'article'}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {t(`feedsAdmin.featured.kind.${k}`)}
            </option>
          ))}
        </select>
      </div>
      <Field id="feature-q" name="q" type="search" label={t('feedsAdmin.featured.field.q')} hint={t('feedsAdmin.featured.field.qHint')} defaultValue={search.q} maxLength={100} />
      <button type="submit" className="button button-secondary">
        {t('feedsAdmin.featured.find')}
      </button>
    </form>
  );
}

/** Step two: choose one of the items found, pin it or not, give it an expiry or not, feature it. */
function ChooseForm({ search, form }: { search: FeaturedSearch; form?: TabForm }) {
  const { t } = usePage();
  const href = useHref();
  const found = search.found ?? [];
  const mine = form?.key === 'feature' ? form : undefined;
  const itemError = mine?.errors.itemId;
  if (found.length === 0) return <p>{t('feedsAdmin.featured.noneFound')}</p>;
  return (
    <form method="post" action={href('/admin/feeds/featured')} noValidate>
      <CsrfField />
      <input type="hidden" name="kind" value={search.kind} />
      <input type="hidden" name="q" value={search.q} />
      <FormError form={form} formKey="feature" />
      <fieldset className={itemError ? 'field field-invalid' : 'field'} aria-describedby={describedBy('feature-item', itemError)}>
        <legend>{t('feedsAdmin.featured.field.item', { kind: t(`feedsAdmin.featured.kind.${search.kind}`) })}</legend>
        {found.map((item) => (
          <div className="field-check" key={item.id}>
            <input id={`feature-item-${item.id}`} type="radio" name="itemId" value={String(item.id)} defaultChecked={mine?.values.itemId === String(item.id)} disabled={item.featured} />
            <label htmlFor={`feature-item-${item.id}`}>
              {item.title || t('feedsAdmin.featured.untitled')}
              <span className="muted">
                {item.at ? ` · ${formatDate(item.at)}` : ''}
                {item.featured ? ` · ${t('feedsAdmin.featured.already')}` : ''}
              </span>
            </label>
          </div>
        ))}
        <FieldNotes id="feature-item" error={itemError} />
      </fieldset>
      <Check id="feature-pinned" name="pinned" label={t('feedsAdmin.featured.field.pinned')} checked={mine?.values.pinned === 'on'} />
      <Field id="feature-ends" name="endsAt" type="datetime-local" label={t('feedsAdmin.featured.field.endsAt')} hint={t('feedsAdmin.featured.field.endsAtHint')} defaultValue={mine?.values.endsAt ?? ''} error={mine?.errors.endsAt} />
      <button type="submit" className="button">
        {t('feedsAdmin.featured.feature')}
      </button>
    </form>
  );
}

/** An event link of its own: title, address, date, place, pin, expiry. */
function EventForm({ form }: { form?: TabForm }) {
  const { t } = usePage();
  const href = useHref();
  const v = (name: string) => typedIn(form, 'event', name);
  const f = (k: string) => t(`feedsAdmin.featured.event.${k}`);
  return (
    <form method="post" action={href('/admin/feeds/featured/event')} noValidate>
      <CsrfField />
      <FormError form={form} formKey="event" />
      <Field id="event-title" name="title" label={f('title')} defaultValue={v('title').value ?? ''} error={v('title').error} maxLength={120} required />
      <Field id="event-url" name="url" label={f('url')} hint={f('urlHint')} defaultValue={v('url').value ?? ''} error={v('url').error} inputMode="url" required />
      <Field id="event-date" name="date" type="date" label={f('date')} defaultValue={v('date').value ?? ''} error={v('date').error} required />
      <Field id="event-place" name="place" label={f('place')} defaultValue={v('place').value ?? ''} error={v('place').error} maxLength={120} />
      <Check id="event-pinned" name="pinned" label={t('feedsAdmin.featured.field.pinned')} checked={v('pinned').value === 'on'} />
      <Field id="event-ends" name="endsAt" type="datetime-local" label={t('feedsAdmin.featured.field.endsAt')} hint={f('endsAtHint')} defaultValue={v('endsAt').value ?? ''} error={v('endsAt').error} />
      <button type="submit" className="button">
        {f('add')}
      </button>
    </form>
  );
}

/** /admin/feeds/featured: the featured items by state, the search to feature one, an event link, the latest changes. */
export function FeaturedAdmin({ rows, next, after, state, search, log, form, notice, forumEnabled }: { rows: FeaturedRow[]; next: number | null; after: number | null; state: FeaturedState | null; search: FeaturedSearch; log: FeedLogLine[]; form?: TabForm; notice?: string; forumEnabled: boolean }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="feeds-admin" heading={t('feedsAdmin.heading')} tabs={<FeedsTabs current="featured" />} notice={notice}>
      <section aria-labelledby="featured-list">
        <h2 id="featured-list">{t('feedsAdmin.featured.listHeading')}</h2>
        <FormError form={form} formKey="list" />
        <StateFilter base="/admin/feeds/featured" states={STATES} current={state} prefix="feedsAdmin.featured.state" />
        <AdminTable prefix="feedsAdmin" section="featured" columns={['item', 'kind', 'state', 'pinned', 'featured', 'actions']} empty={rows.length === 0}>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                {r.url && r.state !== 'gone' ? <a href={r.kind === 'event' ? r.url : href(r.url)}>{r.title}</a> : r.title}
                {r.kind === 'event' && r.eventAt ? <span className="muted"> · {[formatDate(r.eventAt), r.place].filter(Boolean).join(', ')}</span> : null}
              </td>
              <td>{t(`feedsAdmin.featured.kind.${r.kind}`)}</td>
              <td>
                {t(`feedsAdmin.featured.state.${r.state}`)}
                {r.endsAt && r.state !== 'expired' ? <span className="muted"> · {t('feedsAdmin.when.until', { at: dateTime(r.endsAt) })}</span> : null}
              </td>
              <td>{r.pinned ? t('feedsAdmin.pinnedYes') : t('feedsAdmin.pinnedNo')}</td>
              <td>
                {dateTime(r.featuredAt)}
                {r.featuredBy ? <span className="muted"> · {r.featuredBy}</span> : null}
              </td>
              <td>
                <ActionForm action={`/admin/feeds/featured/${r.id}/change`} fields={{ change: r.pinned ? 'unpin' : 'pin' }} label={r.pinned ? t('feedsAdmin.unpin') : t('feedsAdmin.pin')} ariaLabel={t(r.pinned ? 'feedsAdmin.unpinLabel' : 'feedsAdmin.pinLabel', { title: r.title })} secondary />
                <ActionForm action={`/admin/feeds/featured/${r.id}/change`} fields={{ change: 'unfeature' }} label={t('feedsAdmin.featured.unfeature')} ariaLabel={t('feedsAdmin.featured.unfeatureLabel', { title: r.title })} secondary />
              </td>
            </tr>
          ))}
        </AdminTable>
        <Pager base="/admin/feeds/featured" after={after ? String(after) : null} next={next ? String(next) : null} params={state ? `state=${state}` : ''} nextLabel={t('feedsAdmin.more')} firstLabel={t('feedsAdmin.first')} />
      </section>
      <section aria-labelledby="feature-item-heading">
        <h2 id="feature-item-heading">{t('feedsAdmin.featured.featureHeading')}</h2>
        <SearchForm search={search} forumEnabled={forumEnabled} />
        {search.found ? <ChooseForm search={search} form={form} /> : null}
      </section>
      <section aria-labelledby="feature-event-heading">
        <h2 id="feature-event-heading">{t('feedsAdmin.featured.eventHeading')}</h2>
        <EventForm form={form} />
      </section>
      <FeedLog id="featured-log" heading={t('feedsAdmin.log.latest')} lines={log} showTitle />
    </AdminTabFrame>
  );
}
