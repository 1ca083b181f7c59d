import type { GroupCard } from '#src/features/groups/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { usePage } from '#views/layout/page-context.tsx';
import { GroupCards } from './parts.tsx';

/** `/groups`: the viewer's groups first, then the others they can see. */
export function GroupsList({ mine, others, notice }: { mine: GroupCard[]; others: GroupCard[]; notice?: string }) {
  const { t, community } = usePage();
  return (
    <section className="groups">
      <h1>{t('groups.list.heading')}</h1>
      <p className="lead">{t('groups.list.intro', { name: community.familiar_name })}</p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      <h2>{t('groups.list.mine')}</h2>
      {mine.length ? <GroupCards groups={mine} /> : <EmptyState title={t('groups.list.noneMine')} />}
      <h2>{t('groups.list.others')}</h2>
      {others.length ? <GroupCards groups={others} /> : <EmptyState title={t('groups.list.noneOthers')} />}
    </section>
  );
}
