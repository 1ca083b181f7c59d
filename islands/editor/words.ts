/** Words as the server counts them (lib/plain-text.ts countWords): runs of non-space characters of the plain text. */
export function countWordsInText(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : t.split(/\s+/).length;
}

/** 'Autosaved' time: the time of day if today, otherwise day and month (spec section 2). */
export function savedTime(at: Date, now: Date, locale: string, timeZone?: string): string {
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  const sameDay = day(at) === day(now);
  return new Intl.DateTimeFormat(locale, sameDay ? { timeZone, hour: 'numeric', minute: '2-digit' } : { timeZone, day: 'numeric', month: 'short' }).format(at);
}
