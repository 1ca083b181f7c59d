/**
 * Formatting for people (spec section 9): dates, money, relative times, names. Pure and shared:
 * shared/ holds what the server, the views and the browser all use, and imports nothing.
 */
/** A message lookup (src/core/i18n.ts Translate): shared/ imports nothing of src. */
type Translate = (key: string, values?: Record<string, unknown>) => string;

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const currencyFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Dates show like "Mon D, YYYY" (spec section 9), e.g. "Nov 21, 2026". */
export function formatDate(value: Date | string): string {
  return dateFormat.format(new Date(value));
}

/** Currency like "$1,234.56" (spec section 9). */
export function formatCurrency(amount: number): string {
  return currencyFormat.format(amount);
}

/** A fee is shown without a trailing ".00" (spec section 9): $1,500 but $1,500.50. */
export function formatFee(amount: number): string {
  return formatCurrency(amount).replace(/\.00$/, '');
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Relative time ("5 minutes ago"), switching to a date after 21 days (spec section 9). Returns also
 * how soon the text changes: every minute within the first hour, hourly within 3 hours.
 */
export function formatRelative(value: Date | string, now: Date, t: Translate): { text: string; refreshMs: number | null } {
  const then = new Date(value);
  const elapsed = Math.max(0, now.getTime() - then.getTime());
  if (elapsed > 21 * DAY) return { text: formatDate(then), refreshMs: null };
  if (elapsed < MINUTE) return { text: t('format.justNow'), refreshMs: MINUTE };
  if (elapsed < HOUR) return { text: t('format.minutesAgo', { n: Math.floor(elapsed / MINUTE) }), refreshMs: MINUTE };
  if (elapsed < DAY) {
    return { text: t('format.hoursAgo', { n: Math.floor(elapsed / HOUR) }), refreshMs: elapsed < 3 * HOUR ? HOUR : null };
  }
  return { text: t('format.daysAgo', { n: Math.floor(elapsed / DAY) }), refreshMs: null };
}

/** A plural message's forms by plural category, the number written '#': what a browser needs to word it again. */
function pluralForms(t: Translate, key: string, max: number, rules: Intl.PluralRules): Record<string, string> {
  const forms: Record<string, string> = {};
  for (let n = 1; n <= max; n++) {
    const category = rules.select(n);
    forms[category] ??= t(key, { n }).replace(String(n), '#');
  }
  return forms;
}

/**
 * The words formatRelative uses in its first three hours (the time it refreshes in: spec section 9),
 * for the script that refreshes relative times in the browser (islands/RelativeTimes.client.ts).
 */
export function relativeTimeLabels(t: Translate, locale = 'en'): { locale: string; justNow: string; minutes: Record<string, string>; hours: Record<string, string> } {
  const rules = new Intl.PluralRules(locale);
  return { locale, justNow: t('format.justNow'), minutes: pluralForms(t, 'format.minutesAgo', 59, rules), hours: pluralForms(t, 'format.hoursAgo', 23, rules) };
}

/** A person's name as shown: first and last name. */
export const displayName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();
