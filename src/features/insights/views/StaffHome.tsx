import type { ChartData, Granularity, RangePreset, StaffHomeView } from '#src/features/insights/types.ts';
import { AdminHome } from '#views/admin/AdminHome.tsx';
import { BarChart, formatCount, FunnelChart } from '#views/kit/chart.tsx';
import { Field, Hidden } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { Cell, Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The presets (types.ts RANGE_PRESETS: views take values from their own folder only). */
const RANGE_PRESETS: readonly RangePreset[] = ['4w', '12w', '6m', '12m', '24m'];

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const longDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longMonth = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortMonth = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A bucket's label in the table (long) and on the picture's axis (short). */
function periodLabels(starts: readonly string[], granularity: Granularity): { long: string[]; short: string[] } {
  if (granularity === 'month') return { long: starts.map((d) => longMonth.format(utc(d))), short: starts.map((d) => shortMonth.format(utc(d))) };
  return { long: starts.map((d) => longDay.format(utc(d))), short: starts.map((d) => shortDay.format(utc(d))) };
}

function Chart({ chart }: { chart: ChartData }) {
  const { t } = usePage();
  const title = chart.key === 'active' ? t(`insights.charts.active.${chart.granularity}`) : t(`insights.charts.${chart.key}`);
  const { long, short } = periodLabels(
    chart.buckets.map((b) => b.start),
    chart.granularity,
  );
  const series = chart.series.map((name, j) => ({
    name: chart.key === 'active' ? t(`insights.seriesNames.active.${chart.granularity}`) : t(`insights.seriesNames.${name}`),
    values: chart.buckets.map((b) => b.values[j] ?? 0),
  }));
  return (
    <BarChart
      id={`chart-${chart.key}`}
      title={title}
      tableLabel={t('insights.charts.tableLabel', { title })}
      periodHead={t(`insights.charts.period.${chart.granularity}`)}
      periods={long}
      shortPeriods={short}
      series={series}
    />
  );
}

/** The query string of a staff home address: the brand (when another) and the period. */
function query(view: StaffHomeView, extra: Record<string, string>): string {
  const params = new URLSearchParams();
  if (view.form.community) params.set('community', view.brand.code);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** The brand (for staff of several), the presets as links, and a form for dates of one's own: no script needed. */
function RangeChoice({ view }: { view: StaffHomeView }) {
  const { t } = usePage();
  const href = useHref();
  const { form, errors } = view;
  const custom = form.range === 'custom';
  return (
    <div className="insight-range">
      {view.brands.length > 1 ? (
        <form method="get" action={href('/admin')} className="filters">
          <div className="field">
            <label htmlFor="insight-community">{t('insights.range.community')}</label>
            <select id="insight-community" name="community" defaultValue={view.brand.code}>
              {view.brands.map((b) => (
                <option key={b.code} value={b.code}>
                  {b.name}
                </option>
              ))}
            </select>
          </div>
          {custom ? (
            <>
              <Hidden name="from" value={form.from} />
              <Hidden name="to" value={form.to} />
            </>
          ) : (
            <Hidden name="range" value={form.range} />
          )}
          <div className="field">
            <button type="submit" className="button button-secondary">
              {t('insights.range.showCommunity')}
            </button>
          </div>
        </form>
      ) : null}
      <nav aria-label={t('insights.range.legend')}>
        <ul className="board-links">
          {RANGE_PRESETS.map((r) => (
            <li key={r}>
              <a href={href(`/admin${query(view, { range: r })}`)} aria-current={!custom && form.range === r ? 'page' : undefined}>
                {t(`insights.range.presets.${r}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form method="get" action={href('/admin')} className="filters">
        {view.form.community ? <Hidden name="community" value={view.brand.code} /> : null}
        <Field id="insight-from" name="from" type="date" label={t('insights.range.from')} defaultValue={custom ? form.from : view.from} error={errors.from} hint={t('insights.range.datesHint')} />
        <Field id="insight-to" name="to" type="date" label={t('insights.range.to')} defaultValue={custom ? form.to : view.to} error={errors.to} />
        <div className="field">
          <button type="submit" className="button">
            {t('insights.range.show')}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The staff home: the admin areas, then the community's insights for a period (charts and their tables). */
export function StaffHome({ view }: { view: StaffHomeView }) {
  const { t } = usePage();
  const hasErrors = Boolean(view.errors.from || view.errors.to);
  return (
    <AdminHome>
      <section className="insights" aria-labelledby="insights-heading">
        <h2 id="insights-heading">
          {t('insights.home.insightsHeading')}
          {view.brands.length > 1 ? `: ${view.brand.name}` : ''}
        </h2>
        <RangeChoice view={view} />
        {hasErrors ? <Alert kind="error">{t('insights.range.errors.shownDefault')}</Alert> : null}
        <p>{t('insights.home.showing', { from: longDay.format(utc(view.from)), to: longDay.format(utc(view.to)) })}</p>
        <p className="muted">
          {view.rolledAt ? t('insights.home.asOf', { when: `${longDay.format(view.rolledAt)}, ${view.rolledAt.toISOString().slice(11, 16)}` }) : t('insights.home.notYet')}{' '}
          {t('insights.home.totals', { pageViews: view.totals.pageViews, events: view.totals.events })}
        </p>
        <div className="chart-grid-list">
          {view.charts.map((chart) => (
            <Chart key={chart.key} chart={chart} />
          ))}
          <FunnelChart
            id="chart-funnel"
            title={t('insights.charts.funnel')}
            tableLabel={t('insights.charts.tableLabel', { title: t('insights.charts.funnel') })}
            stageHead={t('insights.charts.stage')}
            valueHead={t('insights.charts.articles')}
            stages={view.funnel.stages.map((s) => ({ label: t(`insights.funnel.${s.key}`), value: s.value }))}
          />
        </div>
        <section aria-labelledby="insights-top">
          <h3 id="insights-top">{t('insights.top.heading')}</h3>
          <p className="muted">{t('insights.top.intro')}</p>
          {view.topEvents.length === 0 ? (
            <p>{t('insights.top.none')}</p>
          ) : (
            <Table
              label={t('insights.top.tableLabel')}
              columns={[
                { key: 'category', label: t('insights.top.col.category') },
                { key: 'action', label: t('insights.top.col.action') },
                { key: 'events', label: t('insights.top.col.events'), numeric: true },
              ]}
            >
              {view.topEvents.map((e) => (
                <tr key={`${e.category}:${e.action}`}>
                  <td>{e.category}</td>
                  <td>{e.action}</td>
                  <Cell numeric>{formatCount(e.events)}</Cell>
                </tr>
              ))}
            </Table>
          )}
        </section>
      </section>
    </AdminHome>
  );
}
