import type { AlertBannerProps } from './AlertBanner.tsx';

/** Adds the close button and the ttl to a server-rendered alert; it also drops `alert` from the address. */
export default function enhanceAlert(island: HTMLElement, { ttl, dismissLabel }: AlertBannerProps): void {
  const box = island.querySelector<HTMLElement>('.alert-banner');
  if (!box) return;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'link-button alert-close';
  close.textContent = dismissLabel;
  const dismiss = () => island.remove();
  close.addEventListener('click', dismiss);
  box.append(close);
  // A reload or a shared link should not show the alert again.
  const url = new URL(window.location.href);
  if (url.searchParams.has('alert')) {
    url.searchParams.delete('alert');
    window.history.replaceState(window.history.state, '', url);
  }
  let timer = window.setTimeout(dismiss, ttl);
  const pause = () => window.clearTimeout(timer);
  const resume = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(dismiss, ttl);
  };
  box.addEventListener('mouseenter', pause);
  box.addEventListener('focusin', pause);
  box.addEventListener('mouseleave', resume);
  box.addEventListener('focusout', resume);
}
