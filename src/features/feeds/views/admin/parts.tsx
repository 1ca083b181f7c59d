import type { FeedLogLine } from '#src/features/feeds/index.ts';
import { AdminTable, dateTime } from '#views/admin/tab-frame.tsx';
import { Tabs } from '#views/kit/tabs.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/** The states a list can be narrowed to, as links ("All" first); the current one is aria-current. */
export function StateFilter({ base, states, current, prefix }: { base: string; states: readonly string[]; current: string | null; prefix: string }) {
  const { t } = usePage();
  const tabs = [{ key: 'all', path: base, label: t('feedsAdmin.filter.all') }, ...states.map((s) => ({ key: s, path: `${base}?state=${s}`, label: t(`${prefix}.${s}`) }))];
  return <Tabs label={t('feedsAdmin.filter.label')} tabs={tabs} current={current ?? 'all'} className="state-filter" />;
}

/** The feeds' log: when, who, and what was done to which announcement or featured item. */
export function FeedLog({ id, heading, lines, showTitle }: { id: string; heading: string; lines: readonly FeedLogLine[]; showTitle: boolean }) {
  const { t } = usePage();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <AdminTable prefix="feedsAdmin" section="log" columns={showTitle ? ['when', 'who', 'what', 'which'] : ['when', 'who', 'what']} empty={lines.length === 0}>
        {lines.map((l) => (
          <tr key={l.id}>
            <td>{dateTime(l.at)}</td>
            <td>{l.actorName ?? t('feedsAdmin.log.nobody')}</td>
            <td>{t(`feedsAdmin.log.action.${l.action}`)}</td>
            {showTitle ? <td>{l.title}</td> : null}
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

/** A labelled checkbox. */
export function Check({ id, name, label, checked, hint }: { id: string; name: string; label: string; checked: boolean; hint?: string }) {
  return (
    <div className="field-check">
      <input id={id} type="checkbox" name={name} defaultChecked={checked} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
