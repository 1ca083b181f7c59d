import type { AnnouncementDetail, AnnouncementForm, AnnouncementRow, AnnouncementState, FeedLogLine, GroupChoice } from '#src/features/feeds/index.ts';
import { FeedsTabs } from '#views/admin/feeds-tabs.tsx';
import { ActionForm, AdminTabFrame, AdminTable, dateTime, FormError, Pager, typedIn, type TabForm } from '#views/admin/tab-frame.tsx';
import type { BankPickerState } from '#src/features/content-bank/index.ts';
import { BankPicker } from '#views/kit/bank-picker.tsx';
import { CsrfField, describedBy, Field, FieldNotes, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Check, FeedLog, StateFilter } from './parts.tsx';

const STATES: readonly AnnouncementState[] = ['draft', 'scheduled', 'live', 'expired'];

/** When it shows: its state, and the time that matters for it. */
function StateText({ row }: { row: AnnouncementRow }) {
  const { t } = usePage();
  const when =
    row.state === 'scheduled' && row.shownFrom ? t('feedsAdmin.when.from', { at: dateTime(row.shownFrom) })
    : row.state === 'live' && row.endsAt ? t('feedsAdmin.when.until', { at: dateTime(row.endsAt) })
    : row.state === 'expired' && row.endsAt ? t('feedsAdmin.when.ended', { at: dateTime(row.endsAt) })
    : null;
  return (
    <>
      {t(`feedsAdmin.state.${row.state}`)}
      {when ? <span className="muted"> · {when}</span> : null}
    </>
  );
}

const audienceText = (t: (k: string, v?: Record<string, unknown>) => string, row: AnnouncementRow) =>
  row.audience === 'group' ? (row.groupName ? t('feedsAdmin.audience.groupNamed', { name: row.groupName }) : t('feedsAdmin.groupGone')) : t('feedsAdmin.audience.everyone');

/** /admin/feeds: the announcements by state, newest first, with the latest changes. */
export function AnnouncementsAdmin({ rows, next, after, state, log, notice }: { rows: AnnouncementRow[]; next: number | null; after: number | null; state: AnnouncementState | null; log: FeedLogLine[]; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="feeds-admin" heading={t('feedsAdmin.heading')} tabs={<FeedsTabs current="announcements" />} notice={notice}>
      <p className="actions">
        <a className="button" href={href('/admin/feeds/announcements/new')}>
          {t('feedsAdmin.newAnnouncement')}
        </a>
        <a href={href(`/admin/feeds/announcements.csv${state ? `?state=${state}` : ''}`)}>{t('feedsAdmin.csvLink')}</a>
      </p>
      <StateFilter base="/admin/feeds" states={STATES} current={state} prefix="feedsAdmin.state" />
      <AdminTable prefix="feedsAdmin" section="list" columns={['title', 'state', 'audience', 'pinned', 'seen', 'updated']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(`/admin/feeds/announcements/${r.id}`)}>{r.title}</a>
            </td>
            <td>
              <StateText row={r} />
            </td>
            <td>{audienceText(t, r)}</td>
            <td>
              {r.pinned ? t('feedsAdmin.pinnedYes') : t('feedsAdmin.pinnedNo')}{' '}
              <ActionForm
                action={`/admin/feeds/announcements/${r.id}/change`}
                fields={{ change: r.pinned ? 'unpin' : 'pin' }}
                label={r.pinned ? t('feedsAdmin.unpin') : t('feedsAdmin.pin')}
                ariaLabel={t(r.pinned ? 'feedsAdmin.unpinLabel' : 'feedsAdmin.pinLabel', { title: r.title })}
                secondary
              />
            </td>
            <td>{r.seenCount}</td>
            <td>{dateTime(r.updatedAt)}</td>
          </tr>
        ))}
      </AdminTable>
      <Pager base="/admin/feeds" after={after ? String(after) : null} next={next ? String(next) : null} params={state ? `state=${state}` : ''} nextLabel={t('feedsAdmin.more')} firstLabel={t('feedsAdmin.first')} />
      <FeedLog id="feeds-log" heading={t('feedsAdmin.log.latest')} lines={log} showTitle />
    </AdminTabFrame>
  );
}

function AudienceChoice({ values, errors, groups }: { values: AnnouncementForm; errors: Record<string, string>; groups: GroupChoice[] }) {
  const { t } = usePage();
  const noGroups = groups.length === 0;
  return (
    <>
      <fieldset className={errors.audience ? 'field field-invalid' : 'field'} aria-describedby={describedBy('announcement-audience', errors.audience)}>
        <legend>{t('feedsAdmin.field.audience')}</legend>
        {(['everyone', 'group'] as const).map((a) => (
          <div className="field-check" key={a}>
            <input id={`announcement-audience-${a}`} type="radio" name="audience" value={a} defaultChecked={values.audience === a} disabled={a === 'group' && noGroups} />
            <label htmlFor={`announcement-audience-${a}`}>
              {t(`feedsAdmin.audience.${a}`)}
              {a === 'group' && noGroups ? ` (${t('feedsAdmin.field.noGroups')})` : ''}
            </label>
          </div>
        ))}
        <FieldNotes id="announcement-audience" error={errors.audience} />
      </fieldset>
      {noGroups ? null : (
        <div className={errors.groupId ? 'field field-invalid' : 'field'}>
          <label htmlFor="announcement-group">{t('feedsAdmin.field.group')}</label>
          <select id="announcement-group" name="groupId" defaultValue={values.groupId} aria-invalid={errors.groupId ? true : undefined} aria-describedby={describedBy('announcement-group', errors.groupId, t('feedsAdmin.field.groupHint'))}>
            <option value="">{t('feedsAdmin.field.chooseGroup')}</option>
            {groups.map((g) => (
              <option key={g.id} value={String(g.id)}>
                {t('feedsAdmin.groupOption', { name: g.name, count: g.memberCount })}
              </option>
            ))}
          </select>
          <FieldNotes id="announcement-group" error={errors.groupId} hint={t('feedsAdmin.field.groupHint')} />
        </div>
      )}
    </>
  );
}

/** The announcement's form: its text, link, audience, pin and times; then save (a draft stays one) or publish. */
type AnnouncementPicker = BankPickerState & { target?: string };

function AnnouncementFields({ action, values, errors, groups, published, picker }: { action: string; values: AnnouncementForm; errors: Record<string, string>; groups: GroupChoice[]; published: boolean; picker?: AnnouncementPicker }) {
  const { t } = usePage();
  const href = useHref();
  const f = (k: string) => t(`feedsAdmin.field.${k}`);
  return (
    <form method="post" action={href(action)} className="announcement-form" noValidate>
      <CsrfField />
      <Field id="announcement-title" name="title" label={f('title')} defaultValue={values.title} error={errors.title} maxLength={120} required />
      <TextArea id="announcement-body" name="body" label={f('body')} hint={f('bodyHint')} value={values.body} error={errors.body} rows={6} />
      <Field id="announcement-link-url" name="linkUrl" label={f('linkUrl')} hint={f('linkUrlHint')} defaultValue={values.linkUrl} error={errors.linkUrl} inputMode="url" />
      <Field id="announcement-link-label" name="linkLabel" label={f('linkLabel')} defaultValue={values.linkLabel} error={errors.linkLabel} maxLength={80} />
      <Field id="announcement-image-alt" name="imageAlt" label={f('imageAlt')} hint={f('imageAltHint')} defaultValue={values.imageAlt} error={errors.imageAlt} maxLength={200} />
      <AudienceChoice values={values} errors={errors} groups={groups} />
      <Check id="announcement-pinned" name="pinned" label={f('pinned')} hint={f('pinnedHint')} checked={values.pinned} />
      <Field id="announcement-starts" name="startsAt" type="datetime-local" label={f('startsAt')} hint={f('startsAtHint')} defaultValue={values.startsAt} error={errors.startsAt} />
      <Field id="announcement-ends" name="endsAt" type="datetime-local" label={f('endsAt')} hint={f('endsAtHint')} defaultValue={values.endsAt} error={errors.endsAt} />
      <p className="actions">
        <button type="submit" name="intent" value="save" className={published ? 'button' : 'button button-secondary'}>
          {published ? t('feedsAdmin.save') : t('feedsAdmin.saveDraft')}
        </button>
        {published ? null : (
          <button type="submit" name="intent" value="publish" className="button">
            {t('feedsAdmin.saveAndPublish')}
          </button>
        )}
      </p>
      <BankPicker
        id="announcement-bank"
        picker={picker}
        target={picker?.target}
        targets={[
          { value: 'body', label: f('pickTarget.body') },
          { value: 'link', label: f('pickTarget.link') },
        ]}
      />
    </form>
  );
}

/** /admin/feeds/announcements/new */
export function AnnouncementNew({ values, errors, groups, picker }: { values: AnnouncementForm; errors: Record<string, string>; groups: GroupChoice[]; picker?: AnnouncementPicker }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="feeds-admin" heading={t('feedsAdmin.newTitle')} tabs={<FeedsTabs current="announcements" />} error={errors.form}>
      <p>
        <a href={href('/admin/feeds')}>{t('feedsAdmin.backToList')}</a>
      </p>
      <AnnouncementFields action="/admin/feeds/announcements" values={values} errors={errors} groups={groups} published={false} picker={picker} />
    </AdminTabFrame>
  );
}

/** /admin/feeds/announcements/{id}: its state and the changes it allows, its form, image, and log. */
export function AnnouncementEdit({ announcement: a, groups, form, picker, notice }: { announcement: AnnouncementDetail; groups: GroupChoice[]; form?: TabForm; picker?: AnnouncementPicker; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const mine = form?.key === 'announcement' ? form : undefined;
  const values: AnnouncementForm = mine ? { ...a.form, ...mine.values, pinned: mine.values.pinned === 'on' } : a.form;
  const imageError = typedIn(form, 'image', 'image').error;
  const base = `/admin/feeds/announcements/${a.id}`;
  return (
    <AdminTabFrame className="feeds-admin" heading={a.title} tabs={<FeedsTabs current="announcements" />} notice={notice}>
      <p>
        <a href={href('/admin/feeds')}>{t('feedsAdmin.backToList')}</a>
      </p>
      <section aria-labelledby="announcement-state">
        <h2 id="announcement-state">{t('feedsAdmin.stateHeading')}</h2>
        <FormError form={form} formKey="status" />
        <p>
          <StateText row={a} /> · {audienceText(t, a)} · {a.pinned ? t('feedsAdmin.pinnedYes') : t('feedsAdmin.pinnedNo')} · {t('feedsAdmin.seenBy', { count: a.seenCount })}
        </p>
        <div className="actions">
          {a.state === 'draft' ? <ActionForm action={`${base}/change`} fields={{ change: 'publish' }} label={t('feedsAdmin.publish')} /> : <ActionForm action={`${base}/change`} fields={{ change: 'unpublish' }} label={t('feedsAdmin.unpublish')} secondary />}
          <ActionForm action={`${base}/change`} fields={{ change: a.pinned ? 'unpin' : 'pin' }} label={a.pinned ? t('feedsAdmin.unpin') : t('feedsAdmin.pin')} secondary />
          <ActionForm action={`${base}/change`} fields={{ change: 'delete' }} label={t('feedsAdmin.delete')} ariaLabel={t('feedsAdmin.deleteLabel', { title: a.title })} secondary />
        </div>
      </section>
      <section aria-labelledby="announcement-edit">
        <h2 id="announcement-edit">{t('feedsAdmin.editHeading')}</h2>
        <FormError form={form} formKey="announcement" />
        <AnnouncementFields action={base} values={values} errors={mine?.errors ?? {}} groups={groups} published={a.state !== 'draft'} picker={picker} />
      </section>
      <section aria-labelledby="announcement-image">
        <h2 id="announcement-image">{t('feedsAdmin.field.image')}</h2>
        {a.imagePath ? <img src={href(a.imagePath)} alt={a.imageAlt} width={320} height={180} className="feed-image" /> : <p>{t('feedsAdmin.noImage')}</p>}
        <form method="post" action={href(`${base}/image`)} encType="multipart/form-data">
          <CsrfField />
          <div className={imageError ? 'field field-invalid' : 'field'}>
            <label htmlFor="announcement-image-file">{t('feedsAdmin.field.imageFile')}</label>
            <p className="field-hint" id="announcement-image-file-hint">
              {t('feedsAdmin.field.imageHint')}
            </p>
            <input id="announcement-image-file" type="file" name="image" accept="image/jpeg,image/png,image/webp" aria-invalid={imageError ? true : undefined} aria-describedby={describedBy('announcement-image-file', imageError, 'hint')} />
            <FieldNotes id="announcement-image-file" error={imageError} />
          </div>
          <button type="submit" className="button button-secondary">
            {t('feedsAdmin.upload')}
          </button>
        </form>
        {a.imagePath ? <ActionForm action={`${base}/change`} fields={{ change: 'removeImage' }} label={t('feedsAdmin.removeImage')} secondary /> : null}
      </section>
      <FeedLog id="announcement-log" heading={t('feedsAdmin.log.heading')} lines={a.log} showTitle={false} />
    </AdminTabFrame>
  );
}
