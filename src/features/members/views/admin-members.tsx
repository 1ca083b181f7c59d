import { formatDate } from '#shared/format.ts';
import type { MemberRow, MemberSearch, StaffCommunity } from '#src/features/members/index.ts';
import type { MemberNote, StaffActionEntry } from '#src/features/members/index.ts';
import type { MemberAdminView } from '#src/features/members/index.ts';
import { CsrfField, Field, FieldNotes } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** "Nov 23, 2026, 18:40 UTC": a date with the time of day (staff compare accesses by the minute). */
function dateTime(value: Date): string {
  return `${formatDate(value)}, ${value.toISOString().slice(11, 16)} UTC`;
}

/** The query string of a search (the table's next page and the CSV export share it). */
export function searchParams(query: MemberSearch, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (query.q) p.set('q', query.q);
  if (query.community) p.set('community', query.community);
  if (query.standing) p.set('standing', query.standing);
  if (query.tier) p.set('tier', query.tier);
  if (typeof query.founding === 'boolean') p.set('founding', query.founding ? 'yes' : 'no');
  if (query.active && query.active !== 'all') p.set('active', query.active);
  if (query.sort && query.sort !== 'name') p.set('sort', query.sort);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p.toString();
}

import { memberPath } from '#shared/paths.ts';

export { memberPath };

export function MembersTable({
  rows,
  query,
  total,
  next,
  choices,
  errors = {},
}: {
  rows: MemberRow[];
  query: MemberSearch;
  total: number;
  next: string | null;
  choices: { communities: StaffCommunity[]; standings: string[]; tiers: string[] };
  errors?: Record<string, string>;
}) {
  const { t } = usePage();
  const href = useHref();
  const qs = searchParams(query);
  const select = (id: string, name: string, label: string, value: string, options: Array<[string, string]>) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section>
      <h1>{t('adminMembers.heading')}</h1>
      <p className="muted">{t('adminMembers.intro')}</p>
      {Object.entries(errors)
        .filter(([field]) => field !== 'q')
        .map(([field, message]) => (
          <Alert key={field} kind="error">
            {message}
          </Alert>
        ))}
      <form method="get" action={href('/admin/members')} className="filters" aria-label={t('adminMembers.filters')}>
        <Field id="m-q" name="q" type="search" label={t('adminMembers.search')} error={errors.q} defaultValue={query.q ?? ''} maxLength={200} />
        {select('m-community', 'community', t('adminMembers.community'), query.community ?? '', [
          ['', t('adminMembers.anyCommunity')],
          ...choices.communities.map((c): [string, string] => [c.code, c.name]),
        ])}
        {select('m-standing', 'standing', t('adminMembers.standing'), query.standing ?? '', [
          ['', t('adminMembers.anyStanding')],
          ...choices.standings.map((s): [string, string] => [s, s]),
        ])}
        {select('m-tier', 'tier', t('adminMembers.tier'), query.tier ?? '', [['', t('adminMembers.anyTier')], ...choices.tiers.map((s): [string, string] => [s, s])])}
        {select('m-founding', 'founding', t('adminMembers.founding'), query.founding === true ? 'yes' : query.founding === false ? 'no' : '', [
          ['', t('adminMembers.foundingAny')],
          ['yes', t('adminMembers.foundingYes')],
          ['no', t('adminMembers.foundingNo')],
        ])}
        {select('m-active', 'active', t('adminMembers.active'), query.active ?? 'all', [
          ['all', t('adminMembers.activeAll')],
          ['active', t('adminMembers.activeActive')],
          ['deactivated', t('adminMembers.activeDeactivated')],
        ])}
        {select('m-sort', 'sort', t('adminMembers.sort'), query.sort ?? 'name', [
          ['name', t('adminMembers.sortName')],
          ['joined', t('adminMembers.sortJoined')],
          ['lastAccess', t('adminMembers.sortLastAccess')],
        ])}
        <button type="submit" className="button">
          {t('adminMembers.apply')}
        </button>
      </form>
      <ul className="board-links">
        <li>
          <a href={href(`/admin/members/export.csv${qs ? `?${qs}` : ''}`)} download>
            {t('adminMembers.exportCsv')}
          </a>
        </li>
        <li>
          <a href={href('/admin/members/introductions')}>{t('adminMembers.introductions')}</a>
        </li>
      </ul>
      <p className="muted" role="status">
        {t('adminMembers.count', { n: total })}
      </p>
      {rows.length === 0 ? (
        <EmptyState title={t('adminMembers.none')} />
      ) : (
        <Table
          label={t('adminMembers.tableLabel')}
          caption={t('adminMembers.tableLabel')}
          captionHidden
          columns={(['name', 'email', 'community', 'standing', 'tier', 'founding', 'joined', 'lastAccess', 'active'] as const).map((c) => ({ key: c, label: t(`adminMembers.col.${c}`) }))}
        >
          {rows.map((r) => (
            <tr key={r.membershipId}>
              <th scope="row">
                <a href={href(memberPath(r.communityCode, r.userId))}>{r.name}</a>
              </th>
              <td>{r.email}</td>
              <td>{r.communityName}</td>
              <td>{r.standing ?? ''}</td>
              <td>{r.membershipTier ?? ''}</td>
              <td>{r.isFounding ? t('adminMembers.yes') : t('adminMembers.no')}</td>
              <td>{formatDate(r.joinedAt)}</td>
              <td>{r.lastAccessedAt ? dateTime(r.lastAccessedAt) : t('adminMembers.never')}</td>
              <td>{r.isActive ? t('adminMembers.yes') : t('adminMembers.no')}</td>
            </tr>
          ))}
        </Table>
      )}
      <ul className="board-links">
        {query.after ? (
          <li>
            <a href={href(`/admin/members${qs ? `?${qs}` : ''}`)}>{t('adminMembers.firstPage')}</a>
          </li>
        ) : null}
        {next ? (
          <li>
            <a href={href(`/admin/members?${searchParams(query, { after: next })}`)} rel="next">
              {t('adminMembers.next')}
            </a>
          </li>
        ) : null}
      </ul>
    </section>
  );
}

export type MemberDetailProps = {
  member: MemberAdminView;
  notes: MemberNote[];
  history: StaffActionEntry[];
  notice?: string;
  /** The generated password, on the one answer that shows it. */
  password?: string;
  errors?: Record<string, string>;
  noteValue?: string;
  isSelf: boolean;
};

export function MemberDetail({ member, notes, history, notice, password, errors = {}, noteValue = '', isSelf }: MemberDetailProps) {
  const { t } = usePage();
  // Every action key has its words in the locale; one recorded by code newer than this page reads as a
  // staff action, never as its raw key.
  const actionName = (action: string) => {
    try {
      const words = t(`adminMembers.history.action.${action}`);
      return typeof words === 'string' ? words : t('adminMembers.history.action.other');
    } catch {
      return t('adminMembers.history.action.other');
    }
  };
  const href = useHref();
  const base = memberPath(member.communityCode, member.id);
  const dash = t('adminMembers.none_value');
  const facts: Array<[string, string]> = [
    [t('adminMembers.detail.email'), member.email],
    [t('adminMembers.detail.company'), member.companyName ?? dash],
    [t('adminMembers.detail.jobTitle'), member.jobTitle ?? dash],
    [t('adminMembers.detail.location'), member.location ?? dash],
    [
      t('adminMembers.detail.pronouns'),
      member.pronouns ? t(member.displayPronouns ? 'adminMembers.detail.pronounsShown' : 'adminMembers.detail.pronounsHidden', { pronouns: member.pronouns }) : dash,
    ],
    [t('adminMembers.detail.communityName'), member.communityName],
    [t('adminMembers.detail.communityCode'), member.communityCode],
    [t('adminMembers.detail.state'), member.isActive ? t('adminMembers.detail.stateActive') : t('adminMembers.detail.stateDeactivated')],
    [t('adminMembers.detail.moderator'), member.isModerator ? t('adminMembers.yes') : t('adminMembers.no')],
    [t('adminMembers.detail.health'), member.health ?? dash],
    [t('adminMembers.detail.standing'), member.standing ?? dash],
    [t('adminMembers.detail.tier'), member.membershipTier ?? dash],
    [t('adminMembers.detail.founding'), member.isFounding ? t('adminMembers.yes') : t('adminMembers.no')],
    [t('adminMembers.detail.vertical'), member.vertical ?? dash],
    [t('adminMembers.detail.joinedAt'), formatDate(member.joinedAt)],
    [t('adminMembers.detail.lastAccess'), member.lastAccessedAt ? dateTime(member.lastAccessedAt) : t('adminMembers.never')],
  ];
  const action = (path: string, label: string, fields: Record<string, string> = {}, secondary = true) => (
    <form method="post" action={href(`${base}/${path}`)}>
      <CsrfField />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={secondary ? 'button button-secondary' : 'button'}>
        {label}
      </button>
    </form>
  );
  return (
    <section>
      <p>
        <a href={href('/admin/members')}>{t('adminMembers.detail.back')}</a>
      </p>
      <h1>{member.name}</h1>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      {password ? (
        <div className="alert alert-info" role="status">
          <p>{t('adminMembers.actions.generated', { name: member.name })}</p>
          <p>
            <span>{t('adminMembers.actions.generatedLabel')}: </span>
            <code data-testid="generated-password">{password}</code>
          </p>
        </div>
      ) : null}
      <h2>{t('adminMembers.detail.profile')}</h2>
      <dl className="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <h2>{t('adminMembers.actions.heading')}</h2>
      <ul className="member-actions">
        <li>{action('password-reset', t('adminMembers.actions.sendReset'))}</li>
        <li>{action('password', t('adminMembers.actions.generate'))}</li>
        {member.isActive ? (
          isSelf ? null : <li>{action('active', t('adminMembers.actions.deactivate'), { active: 'false' })}</li>
        ) : (
          <li>{action('active', t('adminMembers.actions.activate'), { active: 'true' }, false)}</li>
        )}
        <li>
          {member.isModerator
            ? action('moderator', t('adminMembers.actions.removeModerator'), { moderator: 'false' })
            : action('moderator', t('adminMembers.actions.makeModerator'), { moderator: 'true' })}
        </li>
      </ul>
      <p>
        <a href={href(`${base}/cards`)}>{t('savedCards.page.link')}</a>
      </p>
      <h2 id="notes">{t('adminMembers.notes.heading')}</h2>
      <form method="post" action={href(`${base}/notes#notes`)}>
        <CsrfField />
        <div className={errors.body ? 'field field-invalid' : 'field'}>
          <label htmlFor="note-body">{t('adminMembers.notes.label')}</label>
          <p className="muted" id="note-body-hint">
            {t('adminMembers.notes.hint')}
          </p>
          <textarea
            id="note-body"
            name="body"
            rows={4}
            defaultValue={noteValue}
            aria-invalid={errors.body ? true : undefined}
            aria-describedby={errors.body ? 'note-body-hint note-body-error' : 'note-body-hint'}
          />
          <FieldNotes id="note-body" error={errors.body} />
        </div>
        <button type="submit" className="button">
          {t('adminMembers.notes.save')}
        </button>
      </form>
      {notes.length === 0 ? (
        <p>{t('adminMembers.notes.none')}</p>
      ) : (
        <ol className="timeline">
          {notes.map((n) => (
            <li key={n.id}>
              <p className="muted">
                {t('adminMembers.notes.by', { author: n.authorName ?? t('adminMembers.notes.unknownAuthor'), time: dateTime(n.createdAt) })}
              </p>
              {n.body.split(/\r?\n/).map((line, i) => (
                <p key={i}>{line}</p>
              ))}
            </li>
          ))}
        </ol>
      )}
      <h2 id="history">{t('adminMembers.history.heading')}</h2>
      {history.length === 0 ? (
        <p>{t('adminMembers.history.none')}</p>
      ) : (
        <ol className="timeline">
          {history.map((h) => (
            <li key={h.id}>
              {t('adminMembers.history.entry', {
                action: actionName(h.action),
                actor: h.actorName ?? t('adminMembers.notes.unknownAuthor'),
                time: dateTime(h.createdAt),
              })}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
