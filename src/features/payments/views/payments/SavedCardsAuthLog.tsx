import type { AuthLogRow } from '#src/features/payments/index.ts';
import { type Column, Table, TableHead } from '#views/kit/table.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/** Spec section 9: the auth log's skeleton shows 10 rows while it loads. */
export const AUTH_LOG_SKELETON_ROWS = 10;

/** The log's columns: the amount is a figure (right-aligned), the rest words. */
function useColumns(): Column[] {
  const { t } = usePage();
  return [
    { key: 'amount', label: t('savedCards.log.amount'), numeric: true },
    { key: 'time', label: t('savedCards.log.time') },
    { key: 'response', label: t('savedCards.log.response') },
    { key: 'reversal', label: t('savedCards.log.reversal') },
  ];
}

/**
 * One card's authorisation log (admin mode only), newest first. The rules of spec section 4: a null
 * response code shows nothing, 0 success, above 0 failure; a null reversal is "Not applicable", 200 a
 * tick, anything else a cross. Each outcome is said in words, not by colour or symbol alone.
 */
export function AuthLogTable({ rows, card }: { rows: AuthLogRow[]; card: { typeName: string; last4: string } }) {
  const { t } = usePage();
  const columns = useColumns();
  if (rows.length === 0) return <p className="muted">{t('savedCards.log.none')}</p>;
  const caption = t('savedCards.log.caption', { type: card.typeName, last4: card.last4 });
  return (
    <Table label={caption} caption={caption} captionHidden columns={columns} className="board auth-log">
      {rows.map((r) => (
        <tr key={r.id}>
          <td className="num">{r.amount}</td>
          <td>{r.time}</td>
          <td>
            {r.response === 'none' ? null : r.response === 'success' ? (
              <span className="auth-ok">{t('savedCards.log.responseSuccess')}</span>
            ) : (
              <span className="auth-failed">{t('savedCards.log.responseFailure', { code: r.responseCode })}</span>
            )}
          </td>
          <td>
            {r.reversal === 'notApplicable' ? (
              t('savedCards.log.reversalNotApplicable')
            ) : r.reversal === 'success' ? (
              <span className="auth-ok">
                <span aria-hidden="true">✓ </span>
                {t('savedCards.log.reversalSuccess')}
              </span>
            ) : (
              <span className="auth-failed">
                <span aria-hidden="true">✗ </span>
                {t('savedCards.log.reversalFailure', { code: r.reversalCode })}
              </span>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * The 10-row placeholder the island shows while a log loads (cloned from this template):
 * the kit table's box and head, hidden from assistive technology (the status line speaks for it), so
 * the log takes its place without a jump.
 */
export function AuthLogSkeleton() {
  const { t } = usePage();
  const columns = useColumns();
  return (
    <template data-log-skeleton="">
      <div className="table-scroll auth-log-skeleton" aria-busy="true">
        <p className="visually-hidden" role="status">
          {t('savedCards.log.loading')}
        </p>
        <table className="table board auth-log" aria-hidden="true">
          <TableHead columns={columns} />
          <tbody>
            {Array.from({ length: AUTH_LOG_SKELETON_ROWS }, (_, i) => (
              <tr key={i}>
                {[0, 1, 2, 3].map((c) => (
                  <td key={c}>
                    <span className="skeleton-bar" />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </template>
  );
}
