import type { RedirectCountdownProps } from './RedirectCountdown.tsx';

/** Goes to `url` after `seconds`, unless the member presses "Stay on this page". */
export default function enhanceRedirect(island: HTMLElement, { url, seconds, stayLabel, stayedMessage }: RedirectCountdownProps): void {
  const box = island.querySelector<HTMLElement>('.redirect-countdown');
  if (!box) return;
  box.hidden = false;
  const timer = window.setTimeout(() => window.location.assign(url), seconds * 1000);
  const stay = document.createElement('button');
  stay.type = 'button';
  stay.className = 'link-button redirect-stay';
  stay.textContent = stayLabel;
  stay.addEventListener('click', () => {
    window.clearTimeout(timer);
    const text = box.querySelector('.redirect-message');
    if (text) text.textContent = stayedMessage;
    stay.remove();
  });
  box.append(' ', stay);
}
