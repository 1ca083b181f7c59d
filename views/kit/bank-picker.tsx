import type { BankPickerState } from '#src/features/content-bank/index.ts';
import { describedBy } from '#views/kit/form.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/**
 * The content bank's picker inside a compose form (a team message, an offer; an announcement once the
 * feeds area wires it): a search field and a button that post the whole form, so nothing typed is lost,
 * and each item found a button that posts it again with the item's title and address added. No script;
 * open when it has something to show. `targets`: where the host may put the item (a select named
 * `bankTarget`), when it offers more than one place.
 */
export function BankPicker({ id, picker, targets, target }: { id: string; picker?: BankPickerState; targets?: { value: string; label: string }[]; target?: string }) {
  const { t } = usePage();
  const open = Boolean(picker && (picker.results !== null || picker.error || picker.added));
  const error = picker?.error ? t(picker.error, { max: 200 }) : undefined;
  const hint = t('contentBank.picker.hint');
  return (
    <details className="bank-picker panel" open={open || undefined}>
      <summary>{t('contentBank.picker.summary')}</summary>
      {picker?.added ? (
        <p role="status" className="bank-picker-added">
          {t('contentBank.picker.added', { title: picker.added })}
        </p>
      ) : null}
      <div className={error ? 'field field-invalid' : 'field'}>
        <label htmlFor={`${id}-q`}>{t('contentBank.picker.search')}</label>
        <input id={`${id}-q`} type="search" name="bankQ" defaultValue={picker?.q ?? ''} maxLength={200} aria-invalid={error ? true : undefined} aria-describedby={describedBy(`${id}-q`, error, hint)} />
        <p className="field-hint" id={`${id}-q-hint`}>
          {hint}
        </p>
        {error ? (
          <p className="field-error" id={`${id}-q-error`}>
            {error}
          </p>
        ) : null}
      </div>
      {targets && targets.length > 1 ? (
        <div className="field">
          <label htmlFor={`${id}-target`}>{t('contentBank.picker.target')}</label>
          <select id={`${id}-target`} name="bankTarget" defaultValue={target ?? targets[0]!.value}>
            {targets.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <p className="actions">
        <button type="submit" name="bankSearch" value="1" className="button button-secondary">
          {t('contentBank.picker.find')}
        </button>
      </p>
      {picker?.results ? (
        picker.results.length ? (
          <ul className="plain bank-picker-results" aria-label={t('contentBank.picker.results')}>
            {picker.results.map((r) => (
              <li key={r.choice}>
                <button type="submit" name="bankPick" value={r.choice} className="button button-secondary" aria-label={t('contentBank.picker.insertItem', { title: r.title })}>
                  {t('contentBank.picker.insert')}
                </button>{' '}
                <span>{r.title}</span> <span className="muted">({t(`contentBank.kind.${r.kind}`)})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('contentBank.picker.none')}</p>
        )
      ) : null}
    </details>
  );
}
