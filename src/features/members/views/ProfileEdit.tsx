import type { MemberProfile, ProfileDraft, SocialNetwork } from '#src/features/members/index.ts';
import { CsrfField, Field, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ProfileAvatar, SOCIAL_NETWORKS } from '#src/features/members/views/Profile.tsx';

export type ProfileEditState = {
  profile: MemberProfile;
  /** What the form shows: the stored profile, or what was typed when a save was refused. */
  draft: ProfileDraft;
  /** Field name -> message. */
  errors: Record<string, string>;
  avatarError?: string;
  notice?: string;
  limits: { companyDescription: number; maxUploadMb: number; maxSide: number };
  /** The industries a member picks from (the service's list). */
  industries: readonly string[];
};

const LINK_EXAMPLES: Record<SocialNetwork, string> = {
  linkedin: 'https://www.linkedin.com/in/your-name',
  twitter: 'https://x.com/yourhandle',
  facebook: 'https://www.facebook.com/yourpage',
  instagram: 'https://www.instagram.com/yourhandle',
  crunchbase: 'https://www.crunchbase.com/person/your-name',
  angellist: 'https://wellfound.com/u/your-name',
  website: 'https://example.com',
};

/** /profile/{userId}/self: the member's own profile, its photo, and the spec's notices (section 9). */
export function ProfileEditPage({ state }: { state: ProfileEditState }) {
  const { t } = usePage();
  const href = useHref();
  const { profile, draft, errors } = state;
  const action = href(`/profile/${profile.id}/self`);
  const text = (name: keyof ProfileDraft, label: string, options: { hint?: string; max?: number; autoComplete?: string } = {}) => (
    <Field
      id={`profile-${name}`}
      name={name}
      label={label}
      hint={options.hint}
      error={errors[name]}
      defaultValue={String(draft[name] ?? '')}
      maxLength={options.max}
      autoComplete={options.autoComplete}
    />
  );
  const industries: string[] = [...state.industries];
  if (draft.industry && !industries.includes(draft.industry)) industries.unshift(draft.industry);
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <section className="profile-edit narrow" aria-labelledby="profile-edit-title">
      <h1 id="profile-edit-title">{t('profile.editTitle')}</h1>
      <p>
        <a href={href(`/profile/${profile.id}`)}>{t('profile.view')}</a>
      </p>
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {hasErrors ? <Alert kind="error">{t('profile.form.invalid')}</Alert> : null}
      <div className="alert alert-info profile-notices">
        <p>{t('profile.notices.publicDelay')}</p>
        <p>{t('profile.notices.supplement')}</p>
      </div>

      <section className="panel profile-photo" aria-labelledby="profile-photo-title">
        <h2 id="profile-photo-title">{t('profile.avatar.heading')}</h2>
        <div className="profile-photo-row">
          <ProfileAvatar name={profile.name} url={profile.avatar} size={80} />
          <p className="muted">{profile.avatar ? t('profile.avatar.current') : t('profile.avatar.none')}</p>
        </div>
        <form method="post" action={`${action}/avatar`} encType="multipart/form-data" className="stack">
          <CsrfField />
          <div className={state.avatarError ? 'field field-invalid' : 'field'}>
            <label htmlFor="profile-avatar">{t('profile.avatar.file')}</label>
            <input
              id="profile-avatar"
              name="avatar"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              aria-invalid={state.avatarError ? true : undefined}
              aria-describedby={describedBy('profile-avatar', state.avatarError, 'hint')}
            />
            <FieldNotes id="profile-avatar" error={state.avatarError} hint={t('profile.avatar.hint', { mb: state.limits.maxUploadMb, side: state.limits.maxSide })} />
          </div>
          <button className="button" type="submit">
            {t('profile.avatar.upload')}
          </button>
        </form>
        {profile.avatar ? (
          <form method="post" action={`${action}/avatar/remove`} className="profile-photo-remove">
            <CsrfField />
            <button className="button button-secondary" type="submit">
              {t('profile.avatar.remove')}
            </button>
          </form>
        ) : null}
      </section>

      <form method="post" action={action} className="stack profile-form" noValidate>
        <CsrfField />
        <fieldset className="stack">
          <legend>{t('profile.form.legendAbout')}</legend>
          <Field id="profile-name" label={t('profile.form.name')} hint={t('profile.form.nameHint')} value={profile.name} readOnly />
          {text('pronouns', t('profile.form.pronouns'), { hint: t('profile.form.pronounsHint') })}
          <div className="check">
            <input id="profile-displayPronouns" name="displayPronouns" type="checkbox" value="on" defaultChecked={draft.displayPronouns} />
            <label htmlFor="profile-displayPronouns">{t('profile.form.displayPronouns')}</label>
          </div>
          {text('jobTitle', t('profile.form.jobTitle'), { autoComplete: 'organization-title' })}
          {text('location', t('profile.form.location'), { hint: t('profile.form.locationHint') })}
        </fieldset>

        <fieldset className="stack">
          <legend>{t('profile.form.legendCompany')}</legend>
          {text('companyName', t('profile.form.companyName'), { autoComplete: 'organization' })}
          <div className={errors.industry ? 'field field-invalid' : 'field'}>
            <label htmlFor="profile-industry">{t('profile.form.industry')}</label>
            <select id="profile-industry" name="industry" defaultValue={draft.industry} aria-invalid={errors.industry ? true : undefined} aria-describedby={describedBy('profile-industry', errors.industry)}>
              <option value="">{t('profile.form.industryNone')}</option>
              {industries.map((i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </select>
            <FieldNotes id="profile-industry" error={errors.industry} />
          </div>
          {text('areaOfFocus', t('profile.form.areaOfFocus'))}
          <Field
            id="profile-employeeCount"
            name="employeeCount"
            label={t('profile.form.employeeCount')}
            hint={t('profile.form.employeeCountHint')}
            error={errors.employeeCount}
            defaultValue={draft.employeeCount}
            inputMode="numeric"
          />
          <div className={errors.companyDescription ? 'field field-invalid' : 'field'}>
            <label htmlFor="profile-companyDescription">{t('profile.form.companyDescription')}</label>
            <textarea
              id="profile-companyDescription"
              name="companyDescription"
              rows={6}
              defaultValue={draft.companyDescription}
              aria-invalid={errors.companyDescription ? true : undefined}
              aria-describedby={describedBy('profile-companyDescription', errors.companyDescription, 'hint')}
            />
            <FieldNotes id="profile-companyDescription" error={errors.companyDescription} hint={t('profile.form.companyDescriptionHint', { max: state.limits.companyDescription })} />
          </div>
        </fieldset>

        <fieldset className="stack">
          <legend>{t('profile.form.legendLinks')}</legend>
          {SOCIAL_NETWORKS.map((n) => (
            <Field
              key={n}
              id={`profile-${n}`}
              name={n}
              type="url"
              label={t(`profile.links.${n}`)}
              hint={t('profile.form.linkHint', { example: LINK_EXAMPLES[n] })}
              error={errors[n]}
              defaultValue={draft[n]}
              autoComplete={n === 'website' ? 'url' : 'off'}
            />
          ))}
        </fieldset>
        <button className="button" type="submit">
          {t('profile.form.save')}
        </button>
      </form>
    </section>
  );
}
