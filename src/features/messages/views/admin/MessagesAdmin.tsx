import type { BankPickerState } from '#src/features/content-bank/index.ts';
import type { AudienceOptions, StaffMessageDetail, StaffMessageForm, StaffMessageRow, TeamMessageStatus } from '#src/features/messages/index.ts';
import { ActionForm, AdminTabFrame, AdminTable, dateTime, StatusLog, Pager } from '#views/admin/tab-frame.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { BankPicker } from '#views/kit/bank-picker.tsx';
import { CsrfField, describedBy, Field, FieldNotes, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** /admin/messages: every message with its sender, audience count, status and delivery figures. */
export function MessagesAdmin({ rows, next, after, notice }: { rows: StaffMessageRow[]; next: number | null; after: number | null; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="messages-admin" heading={t('messagesAdmin.heading')} tabs={null} notice={notice}>
      <p>
        <a className="button" href={href('/admin/messages/new')}>
          {t('messagesAdmin.newMessage')}
        </a>
      </p>
      <AdminTable prefix="messagesAdmin" section="list" columns={['message', 'sender', 'audience', 'created', 'status', 'figures']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(`/admin/messages/${r.id}`)}>{r.subject}</a>
            </td>
            <td>{r.senderName ?? t('messagesAdmin.unknownSender')}</td>
            <td>{t('messagesAdmin.audienceCount', { count: r.audienceCount, kind: t(`messagesAdmin.kind.${r.audienceKind}`) })}</td>
            <td>{dateTime(r.createdAt)}</td>
            <td>
              {t(`messagesAdmin.status.${r.status}`)}
              {r.status === 'SCHEDULED' && r.scheduledAt ? <span className="muted"> · {dateTime(r.scheduledAt)}</span> : null}
            </td>
            <td>{t('messagesAdmin.figures', r.figures)}</td>
          </tr>
        ))}
      </AdminTable>
      <Pager base="/admin/messages" after={after ? String(after) : null} next={next ? String(next) : null} nextLabel={t('messagesAdmin.more')} firstLabel={t('messagesAdmin.first')} />
    </AdminTabFrame>
  );
}

function Select({ id, name, label, value, options, error, placeholder }: { id: string; name: string; label: string; value: string; options: { value: string; label: string }[]; error?: string; placeholder?: string }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
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

const KINDS = ['community', 'group', 'filter', 'emails'] as const;

/** The message's form: subject, body, audience (with its count), then save, send now or schedule. */
function MessageForm({ action, values, errors, options, count, canSend, picker }: { action: string; values: StaffMessageForm; errors: Record<string, string>; options: AudienceOptions; count?: number; canSend: boolean; picker?: BankPickerState }) {
  const { t } = usePage();
  const href = useHref();
  const f = (k: string) => t(`messagesAdmin.field.${k}`);
  const noGroups = options.groups.length === 0;
  return (
    <form method="post" action={href(action)} className="message-form" noValidate>
      <CsrfField />
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <Field id="message-subject" name="subject" label={f('subject')} defaultValue={values.subject} error={errors.subject} maxLength={200} />
      <TextArea id="message-body" name="body" label={f('body')} hint={f('bodyHint')} value={values.body} error={errors.body} rows={10} />
      <fieldset className={errors.audienceKind ? 'field field-invalid' : 'field'} aria-describedby={errors.audienceKind ? 'message-audience-error' : undefined}>
        <legend>{f('audience')}</legend>
        {KINDS.map((k) => (
          <div className="field-check" key={k}>
            <input id={`message-audience-${k}`} type="radio" name="audienceKind" value={k} defaultChecked={values.audienceKind === k} disabled={k === 'group' && noGroups} />
            <label htmlFor={`message-audience-${k}`}>
              {t(`messagesAdmin.kind.${k}`)}
              {k === 'group' && noGroups ? ` (${f('noGroups')})` : ''}
            </label>
          </div>
        ))}
        {errors.audienceKind ? (
          <p className="field-error" id="message-audience-error">
            {errors.audienceKind}
          </p>
        ) : null}
      </fieldset>
      {noGroups ? null : <Select id="message-group" name="groupId" label={f('group')} value={values.groupId} error={errors.groupId} placeholder={f('chooseGroup')} options={options.groups.map((g) => ({ value: String(g.id), label: t('messagesAdmin.groupOption', { name: g.name, count: g.memberCount }) }))} />}
      <fieldset className="field">
        <legend>{f('filter')}</legend>
        <p className="field-hint">{f('filterHint')}</p>
        <Select id="message-tier" name="tier" label={f('tier')} value={values.tier} error={errors.tier} placeholder={f('any')} options={options.tiers.map((v) => ({ value: v, label: v }))} />
        <Select id="message-founding" name="founding" label={f('founding')} value={values.founding} error={errors.founding} placeholder={f('any')} options={['yes', 'no'].map((v) => ({ value: v, label: f(`founding_${v}`) }))} />
        <Select id="message-industry" name="industry" label={f('industry')} value={values.industry} error={errors.industry} placeholder={f('any')} options={options.industries.map((v) => ({ value: v, label: v }))} />
        <Field id="message-location" name="location" label={f('location')} defaultValue={values.location} error={errors.location} maxLength={200} />
        <Select id="message-standing" name="standing" label={f('standing')} value={values.standing} error={errors.standing} placeholder={f('any')} options={options.standings.map((v) => ({ value: v, label: v }))} />
      </fieldset>
      <TextArea id="message-emails" name="emails" label={f('emails')} hint={f('emailsHint')} value={values.emails} error={errors.emails} rows={4} />
      {count !== undefined ? (
        <p role="status" className="audience-count">
          {t('messagesAdmin.countResult', { count })}
        </p>
      ) : null}
      <p className="actions">
        <button type="submit" name="intent" value="count" className="button button-secondary">
          {t('messagesAdmin.count')}
        </button>
        <button type="submit" name="intent" value="save" className="button button-secondary">
          {t('messagesAdmin.save')}
        </button>
        {canSend ? (
          <button type="submit" name="intent" value="send" className="button">
            {t('messagesAdmin.sendNow')}
          </button>
        ) : null}
      </p>
      {canSend ? (
        <>
          <Field id="message-schedule" name="scheduledAt" type="datetime-local" label={f('scheduledAt')} hint={f('scheduledAtHint')} defaultValue={values.scheduledAt} error={errors.scheduledAt} />
          <p className="actions">
            <button type="submit" name="intent" value="schedule" className="button button-secondary">
              {t('messagesAdmin.schedule')}
            </button>
          </p>
        </>
      ) : null}
      <BankPicker id="message-bank" picker={picker} />
    </form>
  );
}

/** /admin/messages/new */
export function MessageNew({ values, errors, options, count, picker }: { values: StaffMessageForm; errors: Record<string, string>; options: AudienceOptions; count?: number; picker?: BankPickerState }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="messages-admin" heading={t('messagesAdmin.newTitle')} tabs={null}>
      <p>
        <a href={href('/admin/messages')}>{t('messagesAdmin.backToList')}</a>
      </p>
      <MessageForm action="/admin/messages" values={values} errors={errors} options={options} count={count} canSend picker={picker} />
    </AdminTabFrame>
  );
}

const EDITABLE: readonly TeamMessageStatus[] = ['DRAFT', 'SCHEDULED'];
const CANCELLABLE: readonly TeamMessageStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING'];

/** /admin/messages/{id}: its status, figures and log; its form while it is a draft or scheduled. */
export function MessageDetail({ message, values, errors, options, count, notice, picker }: { message: StaffMessageDetail; values?: StaffMessageForm; errors: Record<string, string>; options: AudienceOptions; count?: number; notice?: string; picker?: BankPickerState }) {
  const { t } = usePage();
  const href = useHref();
  const status = (s: string) => t(`messagesAdmin.status.${s}`);
  const editable = EDITABLE.includes(message.status);
  return (
    <AdminTabFrame className="messages-admin" heading={message.subject} tabs={null} notice={notice}>
      <p>
        <a href={href('/admin/messages')}>{t('messagesAdmin.backToList')}</a>
      </p>
      <section aria-labelledby="message-status">
        <h2 id="message-status">{t('messagesAdmin.statusHeading')}</h2>
        <p>
          {t('messagesAdmin.statusNow', { status: status(message.status) })}
          {message.status === 'SCHEDULED' && message.scheduledAt ? ` ${t('messagesAdmin.scheduledFor', { at: dateTime(message.scheduledAt) })}` : ''}
        </p>
        <p>{t('messagesAdmin.audienceCount', { count: message.audienceCount, kind: t(`messagesAdmin.kind.${message.audienceKind}`) })}</p>
        <p>{t('messagesAdmin.figures', message.figures)}</p>
        {CANCELLABLE.includes(message.status) ? <ActionForm action={`/admin/messages/${message.id}/cancel`} label={t('messagesAdmin.cancel')} secondary /> : null}
      </section>
      {editable ? (
        <section aria-labelledby="message-edit">
          <h2 id="message-edit">{t('messagesAdmin.editTitle')}</h2>
          <MessageForm action={`/admin/messages/${message.id}`} values={values ?? message.form} errors={errors} options={options} count={count} canSend picker={picker} />
        </section>
      ) : (
        <section aria-labelledby="message-body-heading">
          <h2 id="message-body-heading">{t('messagesAdmin.bodyHeading')}</h2>
          <div className="rich-text" dangerouslySetInnerHTML={{ __html: message.bodyHtml }} />
        </section>
      )}
      <StatusLog id="message-log" prefix="messagesAdmin" events={message.events} status={status} nobody={t('messagesAdmin.log.system')} />
    </AdminTabFrame>
  );
}
