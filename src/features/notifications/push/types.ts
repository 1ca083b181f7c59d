/**
 * Push delivery's types (mobile push through a provider, Web Push to browsers). Types only, so that
 * the app's decorations (src/plugins/types.ts) and the services import them without cycles.
 */

/** What a push says: the community's app name, the notification's message, its absolute link. */
export type PushContent = { title: string; body: string; url: string };

export type MobilePushMessage = PushContent & { token: string; platform: 'ios' | 'fcm' };

/** 'sent', or 'gone': the device no longer takes pushes (uninstalled, token expired); its token is removed. */
export type PushResult = 'sent' | 'gone';

/**
 * A mobile push provider (FCM / APNs behind an HTTP API, or the local outbox). A temporary failure
 * (the provider down, 5xx, 429, the network) throws: the delivery job retries it.
 */
export interface PushProvider {
  send(message: MobilePushMessage): Promise<PushResult>;
}

/** A browser's Web Push subscription, as PushSubscription.toJSON() gives it. */
export type WebPushSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/** Web Push (VAPID): the public key browsers subscribe with, and the sending. */
export interface WebPushSender {
  readonly publicKey: string;
  send(subscription: WebPushSubscription, content: PushContent): Promise<PushResult>;
}

/** What the app is decorated with (`app.push`): mobile push always, Web Push when it has VAPID keys. */
export type PushServices = { mobile: PushProvider; web: WebPushSender | null };
