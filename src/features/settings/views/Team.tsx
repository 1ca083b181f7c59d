import type { CountryOption, OfficePhone, ContactPhone, SupportContact, Team, TeamDraft, TeamType } from '#src/features/settings/index.ts';
import type { TEAM_LIMITS as TeamLimits, TEAM_TYPES as TeamTypes } from '#src/features/settings/index.ts';

/** The service's contact types and longest values (their types hold these to the service's). */
const TEAM_TYPES: typeof TeamTypes = ['ea', 'pr'];
const TEAM_LIMITS: typeof TeamLimits = { name: 120, email: 254, phone: 30, extension: 10 };
import { CsrfField, Field, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ModalSupport } from '#src/features/settings/views/ModalSupport.tsx';
import { SettingsLayout } from '#views/layout/SettingsPage.tsx';

const phoneText = (p: ContactPhone | OfficePhone) => `${p.number}${'extension' in p && p.extension ? ` ext. ${p.extension}` : ''}`;

/** One contact's card: its details and Edit / Delete, or the empty state with Add. */
function TeamCard({ type, contact }: { type: TeamType; contact: SupportContact | null }) {
  const { t } = usePage();
  const href = useHref();
  const titleId = `team-${type}-title`;
  return (
    <section className="panel team-card" aria-labelledby={titleId}>
      <h3 id={titleId}>{t(`team.types.${type}`)}</h3>
      {contact ? (
        <>
          <dl className="team-facts">
            <dt>{t('team.fields.name')}</dt>
            <dd>{contact.name}</dd>
            <dt>{t('team.fields.email')}</dt>
            <dd>{contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : <span className="muted">{t('team.none')}</span>}</dd>
            <dt>{t('team.fields.mobilePhone')}</dt>
            <dd>{contact.mobilePhone ? phoneText(contact.mobilePhone) : <span className="muted">{t('team.none')}</span>}</dd>
            <dt>{t('team.fields.officePhone')}</dt>
            <dd>{contact.officePhone ? phoneText(contact.officePhone) : <span className="muted">{t('team.none')}</span>}</dd>
          </dl>
          <p className="button-row">
            <a className="button" href={href(`/settings/team/${type}`)} data-modal="">
              {t('team.edit')}
              <span className="visually-hidden"> {t(`team.types.${type}`)}</span>
            </a>
            <a className="button button-secondary" href={href(`/settings/team/${type}/delete`)} data-modal="">
              {t('team.delete')}
              <span className="visually-hidden"> {t(`team.types.${type}`)}</span>
            </a>
          </p>
        </>
      ) : (
        <>
          <p className="muted">{t(`team.empty.${type}`)}</p>
          <p className="button-row">
            <a className="button" href={href(`/settings/team/${type}`)} data-modal="">
              {t('team.add')}
              <span className="visually-hidden"> {t(`team.types.${type}`)}</span>
            </a>
          </p>
        </>
      )}
    </section>
  );
}

/** /settings/team: the executive assistant and the PR/marketing contact. */
export function TeamPage({ team }: { team: Team }) {
  const { t } = usePage();
  return (
    <SettingsLayout section="team">
      <h2>{t('settings.sections.team')}</h2>
      <p>{t('team.intro')}</p>
      <div className="team-cards">
        {TEAM_TYPES.map((type) => (
          <TeamCard key={type} type={type} contact={team[type]} />
        ))}
      </div>
      <ModalSupport />
    </SettingsLayout>
  );
}

export type TeamFormState = {
  type: TeamType;
  /** Editing a stored contact (the heading says Edit) or adding one. */
  editing: boolean;
  draft: TeamDraft;
  /** Field name (as in TeamDraft) -> message. */
  errors: Record<string, string>;
  countries: CountryOption[];
};

function CountrySelect({ id, name, value, label, countries }: { id: string; name: string; value: string; label: string; countries: CountryOption[] }) {
  return (
    <div className="field team-country">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} autoComplete="tel-country-code">
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The add/edit form: the page's body, and alone the dialog's fragment. */
export function TeamForm({ state, inDialog = false }: { state: TeamFormState; inDialog?: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const { type, draft, errors } = state;
  const id = (f: string) => `team-${type}-${f}`;
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <div className={inDialog ? 'team-form team-form-dialog' : 'team-form'}>
      <h2 id={id('title')}>{t(state.editing ? `team.editTitle.${type}` : `team.addTitle.${type}`)}</h2>
      {hasErrors ? <Alert kind="error">{t('team.invalid')}</Alert> : null}
      <form method="post" action={href(`/settings/team/${type}`)} className="stack" data-modal-form="" aria-labelledby={id('title')} noValidate>
        <CsrfField />
        <Field id={id('name')} name="name" label={t('team.fields.name')} error={errors.name} defaultValue={draft.name} maxLength={TEAM_LIMITS.name} required autoComplete="off" />
        <Field id={id('email')} name="email" type="email" label={t('team.fields.email')} error={errors.email} defaultValue={draft.email} maxLength={TEAM_LIMITS.email} required autoComplete="off" />
        <fieldset className="team-phone">
          <legend>{t('team.fields.mobilePhone')}</legend>
          <p className="field-hint">{t('team.optional')}</p>
          <CountrySelect id={id('mobilePhoneCountry')} name="mobilePhoneCountry" value={draft.mobilePhoneCountry} label={t('team.fields.country')} countries={state.countries} />
          <Field id={id('mobilePhone')} name="mobilePhone" type="tel" label={t('team.fields.number')} error={errors.mobilePhone} defaultValue={draft.mobilePhone} maxLength={TEAM_LIMITS.phone} autoComplete="off" />
        </fieldset>
        <fieldset className="team-phone">
          <legend>{t('team.fields.officePhone')}</legend>
          <p className="field-hint">{t('team.optional')}</p>
          <CountrySelect id={id('officePhoneCountry')} name="officePhoneCountry" value={draft.officePhoneCountry} label={t('team.fields.country')} countries={state.countries} />
          <Field id={id('officePhone')} name="officePhone" type="tel" label={t('team.fields.number')} error={errors.officePhone} defaultValue={draft.officePhone} maxLength={TEAM_LIMITS.phone} autoComplete="off" />
          <div className={errors.officeExtension ? 'field field-invalid team-extension' : 'field team-extension'}>
            <label htmlFor={id('officeExtension')}>{t('team.fields.extension')}</label>
            <input
              id={id('officeExtension')}
              name="officeExtension"
              inputMode="numeric"
              defaultValue={draft.officeExtension}
              maxLength={TEAM_LIMITS.extension + 4}
              autoComplete="off"
              aria-invalid={errors.officeExtension ? true : undefined}
              aria-describedby={describedBy(id('officeExtension'), errors.officeExtension, 'hint')}
            />
            <FieldNotes id={id('officeExtension')} error={errors.officeExtension} hint={t('team.extensionHint', { max: TEAM_LIMITS.extension })} />
          </div>
        </fieldset>
        <div className="button-row">
          <button type="submit" className="button">
            {t('team.save')}
          </button>
          <a className="button button-secondary" href={href('/settings/team')} data-modal-cancel="">
            {t('team.cancel')}
          </a>
        </div>
      </form>
    </div>
  );
}

export function TeamFormPage({ state }: { state: TeamFormState }) {
  return (
    <SettingsLayout section="team">
      <TeamForm state={state} />
    </SettingsLayout>
  );
}

/** The delete confirmation: the page's body, and alone the dialog's fragment. */
export function TeamDeleteConfirm({ contact }: { contact: SupportContact }) {
  const { t } = usePage();
  const href = useHref();
  const titleId = `team-${contact.type}-delete-title`;
  return (
    <div className="team-delete">
      <h2 id={titleId}>{t(`team.deleteTitle.${contact.type}`)}</h2>
      <p>{t(`team.deleteQuestion.${contact.type}`, { name: contact.name })}</p>
      <form method="post" action={href(`/settings/team/${contact.type}/delete`)} data-modal-form="" aria-labelledby={titleId} className="button-row">
        <CsrfField />
        <button type="submit" className="button">
          {t('team.deleteConfirm')}
        </button>
        <a className="button button-secondary" href={href('/settings/team')} data-modal-cancel="">
          {t('team.cancel')}
        </a>
      </form>
    </div>
  );
}

export function TeamDeletePage({ contact }: { contact: SupportContact }) {
  return (
    <SettingsLayout section="team">
      <TeamDeleteConfirm contact={contact} />
    </SettingsLayout>
  );
}
