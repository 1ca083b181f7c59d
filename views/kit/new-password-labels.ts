import type { Translate } from '#src/core/i18n.ts';
import type { NewPasswordFieldsProps } from '#islands/NewPasswordFields.tsx';

/**
 * The NewPasswordFields island's labels: each form names its own fields and button; the strength
 * criteria and their messages are the same everywhere (reset, setup, settings, onboarding).
 */
export function newPasswordLabels(t: Translate, own: { password: string; confirm: string; submit: string }): NewPasswordFieldsProps['labels'] {
  return {
    ...own,
    criteria: t('auth.reset.criteria'),
    cases: t('auth.reset.cases'),
    length: t('auth.reset.length'),
    numbersOrSymbols: t('auth.reset.numbersOrSymbols'),
    met: t('auth.reset.met'),
    notMet: t('auth.reset.notMet'),
    mismatch: t('auth.reset.mismatch'),
    tooLong: t('auth.reset.tooLong'),
  };
}
