import type { GroupCard } from '#src/features/groups/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { MemberAvatar } from '#views/kit/member-avatar.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** A list of groups as cards: name, what it is about, how many are in it, the viewer's place. */
export function GroupCards({ groups }: { groups: GroupCard[] }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <ul className="group-cards">
      {groups.map((g) => (
        <li key={g.id} className="group-card">
          <h3>
            <a href={href(`/groups/${g.slug}`)}>{g.name}</a>
          </h3>
          {g.excerpt ? <p>{g.excerpt}</p> : null}
          <p className="muted">
            {t('groups.members', { count: g.memberCount })}
            {g.visibility !== 'public' ? ` · ${t(`groups.visibility.${g.visibility}`)}` : ''}
            {g.myRole ? ` · ${t(`groups.role.${g.myRole}`)}` : g.requested ? ` · ${t('groups.requested')}` : ''}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** People of a group, each with their face and name linked to their profile. */
export function People({ people, label }: { people: MemberSnapshot[]; label: string }) {
  const href = useHref();
  return (
    <ul className="group-people" aria-label={label}>
      {people.map((p) => (
        <li key={p.id}>
          <MemberAvatar member={p} /> <a href={href(`/profile/${p.id}`)}>{p.name}</a>
          {p.companyName ? <span className="muted"> · {p.companyName}</span> : null}
        </li>
      ))}
    </ul>
  );
}
