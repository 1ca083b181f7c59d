export type RelativeTimesProps = {
  locale: string;
  justNow: string;
  /** The minutes and hours messages by plural category, the number written '#' (src/core/format.ts relativeTimeLabels). */
  minutes: Record<string, string>;
  hours: Record<string, string>;
};

/**
 * Nothing on the server: the relative times ('3 minutes ago') are the page's own text, marked with
 * `data-rel` (a template holding `{when}`, or empty) and their ISO time (`datetime`, or
 * `data-rel-at`). RelativeTimes.client.ts keeps them current (spec section 9): each minute within the
 * first hour, hourly within three hours. Rendered once, by the page footer, on pages that show them.
 */
export default function RelativeTimes(_props: RelativeTimesProps) {
  return null;
}
