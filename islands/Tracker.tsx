export type TrackerProps = {
  /** Where the batches go (POST /rest/events, through the path prefix). */
  endpoint: string;
};

/**
 * Nothing on the server: the first-party analytics of a member's pages (insights, issue 29).
 * Tracker.client.ts sends a page view on each load and htmx history navigation, exposes
 * `window.trackEvent(category, action, label)` (and `data-track="category|action|label"` on a link or
 * button), and sends the batch with navigator.sendBeacon when the page is hidden or left, or a few
 * seconds after the last event. No third party, no cookie of its own.
 */
export default function Tracker(_props: TrackerProps) {
  return null;
}
