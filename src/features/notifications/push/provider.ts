import type { Outbox } from '#src/lib/messaging/mail.ts';
import type { MobilePushMessage, PushProvider, PushResult } from './types.ts';

export class PushDeliveryError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PushDeliveryError';
  }
}

/** Error bodies by which FCM (UNREGISTERED, NotRegistered, InvalidRegistration) and APNs (BadDeviceToken, Unregistered) say a token is dead. */
const GONE_BODY = /\b(UNREGISTERED|NotRegistered|InvalidRegistration|BadDeviceToken|Unregistered|DeviceTokenNotForTopic)\b/i;

/**
 * A hosted push provider with an FCM/APNs-style HTTP API: POST JSON
 * `{ to, token, platform, notification: { title, body }, data: { url } }` to PUSH_URL with the bearer
 * PUSH_KEY. 2xx: sent, unless the body names a dead token; 404 or 410, or a 400 naming a dead token:
 * gone; anything else (5xx, 429, other 4xx, the network, a timeout) throws and the job retries.
 */
export class HttpPushProvider implements PushProvider {
  constructor(private readonly options: { url: string; key: string; timeoutMs?: number }) {}

  async send(message: MobilePushMessage): Promise<PushResult> {
    const { url, key, timeoutMs = 10_000 } = this.options;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          to: message.token,
          token: message.token,
          platform: message.platform,
          notification: { title: message.title, body: message.body },
          data: { url: message.url },
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new PushDeliveryError(`push provider unreachable: ${(e as Error).message}`);
    }
    const body = await res.text().catch(() => '');
    if (res.status === 404 || res.status === 410) return 'gone';
    if (res.ok) return GONE_BODY.test(body) ? 'gone' : 'sent';
    if (res.status === 400 && GONE_BODY.test(body)) return 'gone';
    throw new PushDeliveryError(`push provider answered ${res.status}: ${body.slice(0, 200)}`, res.status);
  }
}

/** The local sandbox: each push kept in the outbox (memory and a .txt file), shown at /dev/outbox. */
export class OutboxPushProvider implements PushProvider {
  private counter = 0;
  constructor(private readonly outbox: Outbox) {}
  async send(message: MobilePushMessage): Promise<PushResult> {
    const id = `${Date.now().toString(36)}${(this.counter++).toString(36)}`;
    const to = `${message.platform}:${message.token}`;
    const text = `${message.title}\n${message.body}\n${message.url}`;
    await this.outbox.keep({ id, channel: 'push', to, subject: message.title, text, at: new Date() }, `To: ${to}\n\n${text}\n`, 'txt');
    return 'sent';
  }
}
