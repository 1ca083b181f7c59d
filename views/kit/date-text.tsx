import { formatDate } from '#shared/format.ts';

/** A date as the spec shows dates ("Nov 21, 2026"), with the exact time for machines. */
export function DateText({ at }: { at: Date }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDate(at)}</time>;
}
