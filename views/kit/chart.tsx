/**
 * Charts drawn on the server as SVG (no chart library, no script in the browser), each a figure with
 * its caption and, beside it (under it on a phone), the same numbers as a real table: the picture is
 * hidden from assistive technology, which reads the table. Colours come from the stylesheet (the
 * community's --brand and --accent), so the CSP needs no inline style.
 */

export type ChartSeries = { name: string; values: readonly number[] };

const W = 640;
const H = 220;
const PAD = { left: 48, right: 8, top: 14, bottom: 30 };

/** The axis' top: the largest value rounded up to 1, 2 or 5 times a power of ten (at least 1). */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const format = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => format.format(n);

/** The rows of a chart's table, in a box of its own that scrolls (focusable, named) when it is long. */
function DataTable({ id, title, label, periodHead, periods, series }: { id: string; title: string; label: string; periodHead: string; periods: readonly string[]; series: readonly ChartSeries[] }) {
  return (
    <div className="chart-table-box" tabIndex={0} role="region" aria-label={label}>
      <table className="chart-table" id={`${id}-table`}>
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{periodHead}</th>
            {series.map((s) => (
              <th scope="col" key={s.name}>
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {periods.map((p, i) => (
            <tr key={p}>
              <th scope="row">{p}</th>
              {series.map((s) => (
                <td key={s.name}>{formatCount(s.values[i] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Bars per period (one bar per series, side by side), with the axis' top and middle and the first and
 * last periods written on the picture; `periods` label the bars and the table's rows.
 */
export function BarChart({
  id,
  title,
  tableLabel,
  periodHead,
  periods,
  shortPeriods = periods,
  series,
}: {
  id: string;
  title: string;
  /** The table's region's name (e.g. "Active members per week: the figures"). */
  tableLabel: string;
  periodHead: string;
  periods: readonly string[];
  /** Shorter labels for the picture's axis. */
  shortPeriods?: readonly string[];
  series: readonly ChartSeries[];
}) {
  const n = Math.max(periods.length, 1);
  const top = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / n;
  const bar = (slot * 0.8) / Math.max(series.length, 1);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const ticks = [0, top / 2, top];
  const labelled = n === 1 ? [0] : [0, n - 1];
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-body">
        <div className="chart-picture">
          <svg className="chart-svg" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
            {ticks.map((v) => (
              <g key={v}>
                <line className="chart-grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
                <text className="chart-axis" x={PAD.left - 6} y={y(v) + 5} textAnchor="end">
                  {formatCount(Math.round(v * 10) / 10)}
                </text>
              </g>
            ))}
            {series.map((s, j) =>
              s.values.map((v, i) =>
                v > 0 ? (
                  <rect key={`${j}-${i}`} className={`chart-bar chart-s${j}`} x={PAD.left + i * slot + slot * 0.1 + j * bar} y={y(v)} width={Math.max(bar - 1, 1)} height={Math.max(y(0) - y(v), 1)} />
                ) : null,
              ),
            )}
            {labelled.map((i) => (
              <text key={i} className="chart-axis" x={i === 0 ? PAD.left : W - PAD.right} y={H - 8} textAnchor={i === 0 ? 'start' : 'end'}>
                {shortPeriods[i]}
              </text>
            ))}
          </svg>
          {series.length > 1 ? (
            <ul className="chart-legend">
              {series.map((s, j) => (
                <li key={s.name}>
                  <span className={`chart-swatch chart-s${j}`} aria-hidden="true" />
                  {s.name}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <DataTable id={id} title={title} label={tableLabel} periodHead={periodHead} periods={periods} series={series} />
      </div>
    </figure>
  );
}

/** A funnel: one horizontal bar per stage, its name and count written beside it; the table says the same. */
export function FunnelChart({
  id,
  title,
  tableLabel,
  stageHead,
  valueHead,
  stages,
}: {
  id: string;
  title: string;
  tableLabel: string;
  stageHead: string;
  valueHead: string;
  stages: readonly { label: string; value: number }[];
}) {
  const rowH = 34;
  const height = stages.length * rowH + 8;
  const labelW = 200;
  const top = Math.max(1, ...stages.map((s) => s.value));
  const barMax = W - labelW - 70;
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-body">
        <div className="chart-picture">
          <svg className="chart-svg" viewBox={`0 0 ${W} ${height}`} aria-hidden="true" focusable="false">
            {stages.map((s, i) => {
              const w = s.value > 0 ? Math.max((s.value / top) * barMax, 2) : 0;
              const yTop = 4 + i * rowH;
              return (
                <g key={s.label}>
                  <text className="chart-axis" x={labelW - 8} y={yTop + 21} textAnchor="end">
                    {s.label}
                  </text>
                  {w > 0 ? <rect className="chart-bar chart-s0" x={labelW} y={yTop + 4} width={w} height={rowH - 10} /> : null}
                  <text className="chart-axis" x={labelW + w + 6} y={yTop + 21}>
                    {formatCount(s.value)}
                  </text>
                </g>
              );
            })}
          </svg>
        </div>
        <DataTable id={id} title={title} label={tableLabel} periodHead={stageHead} periods={stages.map((s) => s.label)} series={[{ name: valueHead, values: stages.map((s) => s.value) }]} />
      </div>
    </figure>
  );
}
