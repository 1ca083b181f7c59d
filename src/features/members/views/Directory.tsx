import type { DirectoryPage, FilterOptions, Suggestion } from '#src/features/members/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { FieldNotes } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { avatarAt } from '#views/kit/avatar.ts';
import { Tabs as KitTabs } from '#views/kit/tabs.tsx';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

export type DirectoryMode = 'directory' | 'results' | 'browse' | 'discover';

/** The directory's query as typed (kept on the page, also when refused). */
export type DirectoryForm = { q: string; location: string; industry: string; size: string; founding: boolean; letter: string };

export type DirectoryProps = {
  mode: DirectoryMode;
  form: DirectoryForm;
  options: FilterOptions;
  page?: DirectoryPage | null;
  suggestions?: Suggestion[];
  /** Field name -> message (a refused query). */
  errors?: Record<string, string>;
};

const PATHS: Record<Exclude<DirectoryMode, 'discover'>, string> = { directory: '/members', results: '/members/results', browse: '/members/browse' };

/** The query string of a directory address: only the fields that hold something. */
export function directoryParams(form: DirectoryForm, extra: Record<string, string> = {}, { withQuery = true, withLetter = true } = {}): string {
  const p = new URLSearchParams();
  if (withQuery && form.q) p.set('q', form.q);
  if (form.location) p.set('location', form.location);
  if (form.industry) p.set('industry', form.industry);
  if (form.size) p.set('size', form.size);
  if (form.founding) p.set('founding', 'true');
  if (withLetter && form.letter) p.set('letter', form.letter);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

const initialsOf = (m: MemberSnapshot) => `${m.firstName.charAt(0)}${m.lastName.charAt(0)}`.toUpperCase() || '?';

function Avatar({ member }: { member: MemberSnapshot }) {
  const href = useHref();
  if (member.avatar) {
    if (!member.avatar.startsWith('/')) return <img className="member-avatar" src={member.avatar} alt="" width={64} height={64} loading="lazy" decoding="async" />;
    // 64 px on screen: the 80 px preset, the 150 px one on dense screens.
    const src = href(avatarAt(member.avatar, 80));
    return <img className="member-avatar" src={src} srcSet={`${href(avatarAt(member.avatar, 150))} 2x`} alt="" width={64} height={64} loading="lazy" decoding="async" />;
  }
  return (
    <span className="member-avatar member-initials" aria-hidden="true">
      {initialsOf(member)}
    </span>
  );
}

export function MemberCard({ member, reason }: { member: MemberSnapshot; reason?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <li className="card member-card">
      <Avatar member={member} />
      <div className="member-card-body">
        <h2 className="member-name">
          <a href={href(`/profile/${member.id}`)}>{member.name}</a>
          {member.displayPronouns && member.pronouns ? <span className="member-pronouns"> ({member.pronouns})</span> : null}
        </h2>
        {reason ? <p className="member-reason">{reason}</p> : null}
        {member.jobTitle ? <p className="member-line">{member.jobTitle}</p> : null}
        {member.companyName ? <p className="member-line">{member.companyName}</p> : null}
        {member.location ? <p className="member-line muted">{member.location}</p> : null}
        {member.isModerator ? <p className="member-line member-badge">{t('directory.card.moderator')}</p> : null}
      </div>
    </li>
  );
}

/** The members area's tabs: the directory, Discover, and one's introduction requests. */
export function Tabs({ mode }: { mode: DirectoryMode | 'introductions' }) {
  const { t } = usePage();
  const tabs = [
    { key: 'directory', path: '/members', label: t('directory.tabs.directory') },
    { key: 'discover', path: '/members?tab=discover', label: t('directory.tabs.discover') },
    { key: 'introductions', path: '/members/introductions', label: t('directory.tabs.introductions') },
  ];
  const current = mode === 'discover' || mode === 'introductions' ? mode : 'directory';
  return <KitTabs label={t('directory.tabs.label')} tabs={tabs} current={current} />;
}

function SelectField({ id, name, label, any, value, values, error, format }: { id: string; name: string; label: string; any: string; value: string; values: readonly string[]; error?: string; format?: (v: string) => string }) {
  // A value from a shared address that no member has any more stays selectable (and selected).
  const all = value && !values.includes(value) ? [value, ...values] : values;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        <option value="">{any}</option>
        {all.map((v) => (
          <option key={v} value={v}>
            {format ? format(v) : v}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}

/** The search box and the filters: a GET form, so the result's address holds the query. */
function SearchForm({ mode, form, options, errors }: { mode: DirectoryMode; form: DirectoryForm; options: FilterOptions; errors: Record<string, string> }) {
  const { t } = usePage();
  const href = useHref();
  const browsing = mode === 'browse';
  const action = href(browsing ? '/members/browse' : '/members/results');
  return (
    <form method="get" action={action} className="directory-search" role="search" aria-label={t('directory.search.formLabel')}>
      {browsing && form.letter ? <input type="hidden" name="letter" value={form.letter} /> : null}
      {browsing ? null : (
        <div className={errors.q ? 'field field-invalid directory-q' : 'field directory-q'}>
          <label htmlFor="directory-q">{t('directory.search.label')}</label>
          <input
            id="directory-q"
            name="q"
            type="search"
            defaultValue={form.q}
            maxLength={200}
            autoComplete="off"
            aria-invalid={errors.q ? true : undefined}
            aria-describedby={errors.q ? 'directory-q-error directory-q-hint' : 'directory-q-hint'}
          />
          <p className="field-hint" id="directory-q-hint">
            {t('directory.search.hint')}
          </p>
          <FieldNotes id="directory-q" error={errors.q} />
        </div>
      )}
      <div className="filters">
        <SelectField id="directory-location" name="location" label={t('directory.filters.location')} any={t('directory.filters.anyLocation')} value={form.location} values={options.locations} error={errors.location} />
        <SelectField id="directory-industry" name="industry" label={t('directory.filters.industry')} any={t('directory.filters.anyIndustry')} value={form.industry} values={options.industries} error={errors.industry} />
        <SelectField
          id="directory-size"
          name="size"
          label={t('directory.filters.size')}
          any={t('directory.filters.anySize')}
          value={form.size}
          values={options.sizes}
          error={errors.size}
          format={(size) => t('directory.filters.sizeOption', { size })}
        />
        <div className="check directory-founding">
          <input id="directory-founding" name="founding" type="checkbox" value="true" defaultChecked={form.founding} />
          <label htmlFor="directory-founding">{t('directory.filters.founding')}</label>
        </div>
        <button type="submit" className="button">
          {browsing ? t('directory.filters.apply') : t('directory.search.submit')}
        </button>
      </div>
      {form.q || form.location || form.industry || form.size || form.founding ? (
        <p>
          <a href={href(browsing ? `/members/browse${form.letter ? `?letter=${form.letter}` : ''}` : '/members')}>{t('directory.filters.clear')}</a>
        </p>
      ) : null}
    </form>
  );
}

function Letters({ form, mode }: { form: DirectoryForm; mode: DirectoryMode }) {
  const { t } = usePage();
  const href = useHref();
  const current = mode === 'browse' ? form.letter : '';
  return (
    <nav aria-label={t('directory.browse.letters')} className="letters">
      <ul>
        <li>
          <a href={href(`/members/browse${directoryParams(form, {}, { withQuery: false, withLetter: false })}`)} aria-current={mode === 'browse' && !current ? 'page' : undefined}>
            {t('directory.browse.all')}
          </a>
        </li>
        {LETTERS.map((l) => (
          <li key={l}>
            <a href={href(`/members/browse${directoryParams(form, { letter: l }, { withQuery: false })}`)} aria-current={current === l ? 'page' : undefined}>
              {l}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Pages({ mode, form, page }: { mode: Exclude<DirectoryMode, 'discover'>; form: DirectoryForm; page: DirectoryPage }) {
  const { t } = usePage();
  const href = useHref();
  if (!page.next && !page.previous) return null;
  const base = PATHS[mode];
  const opts = { withQuery: mode === 'results', withLetter: mode === 'browse' };
  return (
    <nav className="actions directory-pages" aria-label={t('directory.pages.label')}>
      {page.previous ? <a href={href(`${base}${directoryParams(form, {}, opts)}`)}>{t('directory.pages.first')}</a> : null}
      {page.previous ? (
        <a href={href(`${base}${directoryParams(form, { before: page.previous }, opts)}`)} rel="prev">
          {t('directory.pages.previous')}
        </a>
      ) : null}
      {page.next ? (
        <a href={href(`${base}${directoryParams(form, { after: page.next }, opts)}`)} rel="next">
          {t('directory.pages.next')}
        </a>
      ) : null}
    </nav>
  );
}

export function DirectoryView({ mode, form, options, page, suggestions = [], errors = {} }: DirectoryProps) {
  const { t, community } = usePage();
  const heading =
    mode === 'results' && form.q
      ? t('directory.results.for', { q: form.q })
      : mode === 'browse'
        ? form.letter
          ? t('directory.browse.letterHeading', { letter: form.letter })
          : t('directory.browseTitle')
        : mode === 'discover'
          ? t('directory.discoverTitle')
          : t('directory.title');
  const filtered = Boolean(form.q || form.location || form.industry || form.size || form.founding || form.letter);
  return (
    <section className="directory">
      <h1>{heading}</h1>
      <Tabs mode={mode} />
      {mode === 'discover' ? (
        <>
          <p className="lead">{t('directory.discover.intro')}</p>
          {suggestions.length === 0 ? (
            <EmptyState title={t('directory.discover.none')} />
          ) : (
            <ul className="cards member-cards" aria-label={t('directory.discoverTitle')}>
              {suggestions.map((s) => (
                <MemberCard key={s.member.id} member={s.member} reason={t(`directory.discover.reason.${s.reason}`, { detail: s.detail ?? '' })} />
              ))}
            </ul>
          )}
        </>
      ) : (
        <>
          {mode === 'directory' ? <p className="lead">{t('directory.intro', { community: community.familiar_name })}</p> : null}
          {Object.keys(errors).length ? <Alert kind="error">{t('directory.errors.form')}</Alert> : null}
          <SearchForm mode={mode} form={form} options={options} errors={errors} />
          <Letters form={form} mode={mode} />
          {page ? (
            page.members.length === 0 ? (
              <EmptyState title={filtered ? t(mode === 'results' && form.q ? 'directory.results.none' : 'directory.results.noneBrowse') : t('directory.results.empty')} />
            ) : (
              <ul className="cards member-cards" aria-label={t('directory.card.listLabel')}>
                {page.members.map((m) => (
                  <MemberCard key={m.id} member={m} />
                ))}
              </ul>
            )
          ) : null}
          {page ? <Pages mode={mode} form={form} page={page} /> : null}
        </>
      )}
    </section>
  );
}
