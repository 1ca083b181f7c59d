import type { PushSubscribeProps, PushSubscribeState } from './PushSubscribe.tsx';

/** The VAPID key as applicationServerKey wants it (bytes from base64url). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Web Push in this browser, without React: registers the service worker (sw.js at the app's root),
 * asks for permission on the click (never before), subscribes with the server's VAPID key and sends
 * the subscription (CSRF header); "Turn off" unsubscribes and tells the server. The state line is a
 * status region: each change is announced. Once on or off, the page reloads with its alert so that the
 * list of devices shows the change.
 */
export default function enhancePushSubscribe(island: HTMLElement, props: PushSubscribeProps): void {
  const found = [island.querySelector<HTMLElement>('[data-push-state]'), island.querySelector<HTMLButtonElement>('[data-push-on]'), island.querySelector<HTMLButtonElement>('[data-push-off]')] as const;
  if (!found[0] || !found[1] || !found[2]) return;
  const state: HTMLElement = found[0];
  const on: HTMLButtonElement = found[1];
  const off: HTMLButtonElement = found[2];
  const set = (s: PushSubscribeState) => {
    state.textContent = props.labels[s];
    state.dataset.state = s;
    on.hidden = !(s === 'off' || s === 'failed');
    off.hidden = s !== 'on';
    on.disabled = off.disabled = false;
  };
  const supported = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (!props.publicKey || !supported) return set('unsupported');
  const publicKey = props.publicKey;
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify(body) });

  const current = async () => {
    const reg = await navigator.serviceWorker.getRegistration(props.scope);
    return reg ? reg.pushManager.getSubscription() : null;
  };

  async function refresh() {
    if (Notification.permission === 'denied') return set('blocked');
    const sub = await current();
    if (sub && !props.knownEndpoints.includes(sub.endpoint)) {
      // Removed from the list (here or elsewhere): this browser stops too.
      await sub.unsubscribe().catch(() => false);
      return set('off');
    }
    set(sub && Notification.permission === 'granted' ? 'on' : 'off');
  }

  async function turnOn() {
    set('working');
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return set(permission === 'denied' ? 'blocked' : 'off');
      await navigator.serviceWorker.register(props.worker, { scope: props.scope });
      const reg = await navigator.serviceWorker.ready;
      const existing = await reg.pushManager.getSubscription();
      if (existing) await existing.unsubscribe();
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      const res = await post(props.subscribeUrl, sub.toJSON());
      if (!res.ok) {
        await sub.unsubscribe().catch(() => false);
        return set('failed');
      }
      location.assign(props.onUrl);
    } catch {
      set('failed');
    }
  }

  async function turnOff() {
    off.disabled = true;
    try {
      const sub = await current();
      if (sub) {
        await post(props.unsubscribeUrl, { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
      location.assign(props.offUrl);
    } catch {
      set('failed');
    }
  }

  on.addEventListener('click', () => void turnOn());
  off.addEventListener('click', () => void turnOff());
  void refresh().catch(() => set('off'));
}
