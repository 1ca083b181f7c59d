/**
 * Money is integer cents with a currency (issue 13); these turn it into text. Currency like
 * "$1,234.56"; a fee without trailing ".00" (spec section 9).
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatFor(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formats.set(currency, format);
  }
  return format;
}

export function formatMoney(cents: number, currency = 'USD'): string {
  return formatFor(currency).format(cents / 100);
}

/** A fee is shown without trailing ".00": "$500", "$99.50". */
export function formatFee(cents: number, currency = 'USD'): string {
  return formatMoney(cents, currency).replace(/\.00$/, '');
}

/** A sum of cents that refuses anything but safe integers (a ledger never holds half a cent). */
export function sumCents(values: readonly number[]): number {
  let total = 0;
  for (const v of values) {
    if (!Number.isSafeInteger(v)) throw new RangeError(`not a whole number of cents: ${v}`);
    total += v;
  }
  return total;
}
