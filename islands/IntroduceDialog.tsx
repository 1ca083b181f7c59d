export type IntroduceDialogProps = {
  /** The request page, /profile/{userId}/introduce (through the path prefix). */
  href: string;
  /** The link's text, and words only screen readers hear after it (naming the member). */
  text: string;
  hiddenSuffix: string;
  labels: { close: string; loading: string; failed: string; openPage: string };
};

/**
 * "Request introduction" as the server renders it: a plain link to the request page, which works
 * without JavaScript. In the browser IntroduceDialog.client.ts (no React) opens the same form in a
 * native <dialog> instead, for this link and every other `a[data-introduce]` on the page (directory
 * cards may carry many: the script is included once).
 */
export default function IntroduceDialog({ href, text, hiddenSuffix }: IntroduceDialogProps) {
  return (
    <a className="button button-secondary" href={href} data-introduce="">
      {text}
      {hiddenSuffix ? <span className="visually-hidden">{hiddenSuffix}</span> : null}
    </a>
  );
}
