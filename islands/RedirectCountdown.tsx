export type RedirectCountdownProps = {
  /** Where to go (an application path, with the path prefix). */
  url: string;
  seconds: number;
  /** What the page says is about to happen (announced: role status). */
  message: string;
  stayLabel: string;
  stayedMessage: string;
};

/**
 * The 5-second redirect after onboarding (spec section 9), announced in text. RedirectCountdown.client.ts
 * shows the message, goes after the delay and adds a "Stay on this page" button that cancels it
 * (WCAG 2.2.1: a time limit the user can turn off). Without JavaScript nothing moves the page (a meta
 * refresh could not be turned off): the message stays hidden and the links onward are the way on.
 */
export default function RedirectCountdown({ message }: RedirectCountdownProps) {
  return (
    <p className="redirect-countdown" role="status" hidden>
      <span className="redirect-message">{message}</span>
    </p>
  );
}
