import type { FeedActionRow, FeedAddresses, FeedChoice, FeedChoices, FeedFormat, StaffFeedDetail, StaffFeedRow, SyndicationStaffForm } from '#src/features/syndication/index.ts';
import { FeedsTabs } from '#views/admin/feeds-tabs.tsx';
import { ActionForm, AdminTabFrame, AdminTable, dateTime, FormError } from '#views/admin/tab-frame.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { CsrfField, describedBy, Field, FieldNotes, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

const FORMATS: readonly FeedFormat[] = ['rss', 'atom', 'json'];
const TYPES = ['article', 'roundup'] as const;
const P = 'syndication.admin';

/** A feed's form as typed, or as stored. */
type Values = { title: string; slug: string; description: string; limit: string; types: string[]; tags: string[]; collections: string[]; enabled: boolean };

const valuesOfForm = (v: Record<string, string>): Values => ({
  title: v.title ?? '',
  slug: v.slug ?? '',
  description: v.description ?? '',
  limit: v.limit ?? '',
  types: (v.types ?? '').split(',').filter(Boolean),
  tags: (v.tags ?? '').split(',').filter(Boolean),
  collections: (v.collections ?? '').split(',').filter(Boolean),
  enabled: v.enabled === 'on',
});

/** The content bank's tags or collections to tick (none in the bank: a line saying so). */
function ChoiceFields({ id, name, legend, hint, none, choices, ticked, error }: { id: string; name: string; legend: string; hint: string; none: string; choices: FeedChoice[]; ticked: string[]; error?: string }) {
  return (
    <fieldset className={error ? 'field field-invalid' : 'field'} aria-describedby={describedBy(id, error, hint)}>
      <legend>{legend}</legend>
      {choices.length === 0 ? <p className="muted">{none}</p> : null}
      {choices.map((c) => (
        <div key={c.id} className="field-check">
          <input type="checkbox" id={`${id}-${c.id}`} name={name} value={String(c.id)} defaultChecked={ticked.includes(String(c.id))} />
          <label htmlFor={`${id}-${c.id}`}>{c.name}</label>
        </div>
      ))}
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}

function FeedFields({ idPrefix, values, errors, choices }: { idPrefix: string; values: Values; errors: Record<string, string>; choices: FeedChoices }) {
  const { t } = usePage();
  const f = (k: string) => t(`${P}.field.${k}`);
  const typesId = `${idPrefix}-types`;
  return (
    <>
      <Field id={`${idPrefix}-title`} name="title" label={f('title')} maxLength={200} defaultValue={values.title} error={errors.title} required />
      <Field id={`${idPrefix}-slug`} name="slug" label={f('slug')} hint={f('slugHint')} maxLength={80} defaultValue={values.slug} error={errors.slug} />
      <TextArea id={`${idPrefix}-description`} name="description" label={f('description')} hint={f('descriptionHint')} value={values.description} error={errors.description} rows={3} />
      <fieldset className={errors.types ? 'field field-invalid' : 'field'} aria-describedby={describedBy(typesId, errors.types)}>
        <legend>{f('types')}</legend>
        {TYPES.map((type) => (
          <div key={type} className="check">
            <input type="checkbox" id={`${typesId}-${type}`} name="types" value={type} defaultChecked={values.types.includes(type)} />
            <label htmlFor={`${typesId}-${type}`}>{t(`${P}.type.${type}`)}</label>
          </div>
        ))}
        <FieldNotes id={typesId} error={errors.types} />
      </fieldset>
      <ChoiceFields id={`${idPrefix}-tags`} name="tags" legend={f('tags')} hint={f('tagsHint')} none={f('noTags')} choices={choices.tags} ticked={values.tags} error={errors.tags} />
      <ChoiceFields
        id={`${idPrefix}-collections`}
        name="collections"
        legend={f('collections')}
        hint={f('collectionsHint')}
        none={f('noCollections')}
        choices={choices.collections}
        ticked={values.collections}
        error={errors.collections}
      />
      <Field id={`${idPrefix}-limit`} name="limit" type="number" inputMode="numeric" min={1} max={100} label={f('limit')} hint={f('limitHint')} defaultValue={values.limit} error={errors.limit} />
      <div className="field">
        <div className="check">
          <input type="checkbox" id={`${idPrefix}-enabled`} name="enabled" defaultChecked={values.enabled} />
          <label htmlFor={`${idPrefix}-enabled`}>{f('enabled')}</label>
        </div>
      </div>
    </>
  );
}

/** A feed's three addresses: each in a read-only field to copy, with a link to open it. */
function Addresses({ title, addresses }: { title: string; addresses: FeedAddresses }) {
  const { t } = usePage();
  return (
    <ul className="feed-addresses">
      {FORMATS.map((format) => (
        <li key={format}>
          <label htmlFor={`address-${format}`}>{t(`${P}.format.${format}`)}</label>
          <input id={`address-${format}`} type="text" readOnly value={addresses[format]} />
          <a href={addresses[format]} aria-label={t(`${P}.openLabel`, { format: t(`${P}.format.${format}`), title })}>
            {t(`${P}.open`)}
          </a>
        </li>
      ))}
    </ul>
  );
}

function typesText(t: (k: string) => string, types: readonly string[]) {
  return types.map((type) => t(`${P}.type.${type}`)).join(', ');
}

function FeedLog({ log, withFeed }: { log: FeedActionRow[]; withFeed: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const columns = withFeed ? ['when', 'who', 'feed', 'what', 'detail'] : ['when', 'who', 'what', 'detail'];
  return (
    <section aria-labelledby="feeds-log">
      <h2 id="feeds-log">{t(`${P}.log.heading`)}</h2>
      <AdminTable prefix={P} section="log" columns={columns} empty={log.length === 0}>
        {log.map((l) => (
          <tr key={l.id}>
            <td>{dateTime(l.createdAt)}</td>
            <td>{l.actorName ?? t(`${P}.log.nobody`)}</td>
            {withFeed ? <td>{l.feedId ? <a href={href(`/admin/feeds/syndication/${l.feedId}`)}>{l.feedSlug}</a> : l.feedSlug}</td> : null}
            <td>{t(`${P}.actions.${l.action}`)}</td>
            <td>{l.detail}</td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

/** /admin/feeds/syndication: every feed with its addresses, a new feed's form, and the log. */
export function SyndicationAdmin({ feeds, log, choices, blank, form, notice }: { feeds: StaffFeedRow[]; log: FeedActionRow[]; choices: FeedChoices; blank: Record<string, string>; form?: SyndicationStaffForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const mine = form?.key === 'feed' ? form : undefined;
  return (
    <AdminTabFrame className="syndication-admin" heading={t(`${P}.heading`)} tabs={<FeedsTabs current="syndication" />} notice={notice}>
      <p>{t(`${P}.intro`)}</p>
      <section aria-labelledby="feeds-list">
        <h2 id="feeds-list">{t(`${P}.listHeading`)}</h2>
        <AdminTable prefix={P} section="feeds" columns={['feed', 'carries', 'status', 'addresses', 'updated', 'actions']} empty={feeds.length === 0}>
          {feeds.map((f) => (
            <tr key={f.id}>
              <td>
                <a href={href(`/admin/feeds/syndication/${f.id}`)}>{f.title}</a>
                <br />
                <span className="muted">{f.slug}</span>
              </td>
              <td>{t(`${P}.carries`, { types: typesText(t, f.types), limit: f.limit })}</td>
              <td>{t(f.enabled ? `${P}.status.enabled` : `${P}.status.disabled`)}</td>
              <td>
                <ul className="feed-links">
                  {FORMATS.map((format) => (
                    <li key={format}>
                      <a href={f.addresses[format]}>{f.addresses[format]}</a>
                    </li>
                  ))}
                </ul>
              </td>
              <td>{dateTime(f.updatedAt)}</td>
              <td>
                <ActionForm
                  action={`/admin/feeds/syndication/${f.id}/${f.enabled ? 'disable' : 'enable'}`}
                  label={t(f.enabled ? `${P}.disable` : `${P}.enable`)}
                  ariaLabel={t(f.enabled ? `${P}.disableLabel` : `${P}.enableLabel`, { title: f.title })}
                  secondary
                />
              </td>
            </tr>
          ))}
        </AdminTable>
      </section>
      <section aria-labelledby="feed-new">
        <h2 id="feed-new">{t(`${P}.newHeading`)}</h2>
        {mine?.errors.form ? <Alert kind="error">{mine.errors.form}</Alert> : null}
        <form method="post" action={href('/admin/feeds/syndication')} noValidate>
          <CsrfField />
          <FeedFields idPrefix="feed" values={valuesOfForm(mine?.values ?? blank)} errors={mine?.errors ?? {}} choices={choices} />
          <button type="submit" className="button">
            {t(`${P}.create`)}
          </button>
        </form>
      </section>
      <FeedLog log={log} withFeed />
    </AdminTabFrame>
  );
}

/** /admin/feeds/syndication/{id}: its addresses, form, state, the items it carries now, delete, and its log. */
export function SyndicationFeedPage({ feed, choices, form, notice }: { feed: StaffFeedDetail; choices: FeedChoices; form?: SyndicationStaffForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const mine = form?.key === 'feed' ? form : undefined;
  const values: Values = mine ? valuesOfForm(mine.values) : { title: feed.title, slug: feed.slug, description: feed.description, limit: String(feed.limit), types: feed.types, tags: feed.tags.map(String), collections: feed.collections.map(String), enabled: feed.enabled };
  const deleteError = form?.key === 'delete' ? form.errors.confirm : undefined;
  return (
    <AdminTabFrame className="syndication-admin" heading={t(`${P}.heading`)} tabs={<FeedsTabs current="syndication" />} notice={notice}>
      <p>
        <a href={href('/admin/feeds/syndication')}>{t(`${P}.backToList`)}</a>
      </p>
      <h2>{feed.title}</h2>
      <p>
        {t(feed.enabled ? `${P}.status.enabled` : `${P}.status.disabled`)} · {t(`${P}.carries`, { types: typesText(t, feed.types), limit: feed.limit })}
      </p>
      <FormError form={form} formKey="state" />
      <ActionForm action={`/admin/feeds/syndication/${feed.id}/${feed.enabled ? 'disable' : 'enable'}`} label={t(feed.enabled ? `${P}.disable` : `${P}.enable`)} secondary />
      <section aria-labelledby="feed-addresses">
        <h3 id="feed-addresses">{t(`${P}.addressesHeading`)}</h3>
        {feed.enabled ? null : <p>{t(`${P}.disabledAddresses`)}</p>}
        <Addresses title={feed.title} addresses={feed.addresses} />
      </section>
      <section aria-labelledby="feed-edit">
        <h3 id="feed-edit">{t(`${P}.editHeading`)}</h3>
        {mine?.errors.form ? <Alert kind="error">{mine.errors.form}</Alert> : null}
        <form method="post" action={href(`/admin/feeds/syndication/${feed.id}`)} noValidate>
          <CsrfField />
          <FeedFields idPrefix="feed" values={values} errors={mine?.errors ?? {}} choices={choices} />
          <button type="submit" className="button">
            {t(`${P}.save`)}
          </button>
        </form>
      </section>
      <section aria-labelledby="feed-preview">
        <h3 id="feed-preview">{t(`${P}.previewHeading`, { count: feed.preview.length })}</h3>
        <AdminTable prefix={P} section="preview" columns={['published', 'type', 'item']} empty={feed.preview.length === 0}>
          {feed.preview.map((item) => (
            <tr key={`${item.type}-${item.sourceId}`}>
              <td>{dateTime(item.publishedAt)}</td>
              <td>{t(`${P}.type.${item.type}`)}</td>
              <td>
                <a href={item.url}>{item.title}</a>
                {item.authorName ? <span className="muted"> · {item.authorName}</span> : null}
                <br />
                <span className="muted">{item.summary}</span>
              </td>
            </tr>
          ))}
        </AdminTable>
      </section>
      <section aria-labelledby="feed-delete">
        <h3 id="feed-delete">{t(`${P}.deleteHeading`)}</h3>
        <p>{t(`${P}.deleteHint`)}</p>
        <form method="post" action={href(`/admin/feeds/syndication/${feed.id}/delete`)} noValidate>
          <CsrfField />
          <div className={deleteError ? 'field field-invalid' : 'field'}>
            <div className="check">
              <input type="checkbox" id="feed-delete-confirm" name="confirm" aria-invalid={deleteError ? true : undefined} aria-describedby={describedBy('feed-delete-confirm', deleteError)} />
              <label htmlFor="feed-delete-confirm">{t(`${P}.deleteConfirm`, { title: feed.title })}</label>
            </div>
            <FieldNotes id="feed-delete-confirm" error={deleteError} />
          </div>
          <button type="submit" className="button button-secondary">
            {t(`${P}.delete`)}
          </button>
        </form>
      </section>
      <FeedLog log={feed.log} withFeed={false} />
    </AdminTabFrame>
  );
}
