import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '#src/config.ts';
import type { PushContent, PushResult, WebPushSender, WebPushSubscription } from './types.ts';

/** Push service answers that no retry can mend: the subscription is dropped. */
const GONE = new Set([400, 403, 404, 410, 413]);

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** How long a push service keeps a push for a browser that is offline (seconds): a day. */
export const WEB_PUSH_TTL = 24 * 60 * 60;

/**
 * The VAPID keys Web Push signs with (decision 0021): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set;
 * otherwise tests generate a pair in memory and development generates one once and keeps it in
 * DATA_DIR/vapid.json (a browser's subscription is bound to the key it subscribed with, so the key
 * must outlive restarts). In production without keys Web Push is off: null, and the caller warns.
 */
export function vapidKeys(config: Config): VapidKeys | null {
  const subject = config.vapid?.subject ?? `mailto:${config.mailFrom}`;
  if (config.vapid) return { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey, subject };
  if (config.isProduction) return null;
  if (config.env === 'test') return { ...webpush.generateVAPIDKeys(), subject };
  const file = path.resolve(config.dataDir, 'vapid.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string') {
      chmodSync(file, 0o600); // a private key: the owner's only, whoever made the file
      return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
    }
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return { ...keys, subject };
}

/**
 * Web Push with the `web-push` library: the payload (JSON title, body, url) encrypted for the
 * browser (aes128gcm) and signed with VAPID, POSTed to the subscription's endpoint at its push
 * service. 404/410 (expired, unsubscribed) and the other permanent refusals, 400 (a malformed
 * subscription), 403 (the VAPID key it was made with was rotated away) and 413 (never deliverable):
 * the subscription is gone. 429, 5xx and the network throw (the job retries).
 */
export class VapidWebPush implements WebPushSender {
  readonly publicKey: string;
  constructor(
    private readonly keys: VapidKeys,
    private readonly options: { timeoutMs?: number; agent?: Agent } = {},
  ) {
    this.publicKey = keys.publicKey;
  }

  async send(subscription: WebPushSubscription, content: PushContent): Promise<PushResult> {
    try {
      await webpush.sendNotification(subscription, JSON.stringify(content), {
        vapidDetails: { subject: this.keys.subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        TTL: WEB_PUSH_TTL,
        contentEncoding: 'aes128gcm',
        timeout: this.options.timeoutMs ?? 10_000,
        ...(this.options.agent ? { agent: this.options.agent } : {}),
      });
      return 'sent';
    } catch (e) {
      const status = (e as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number' && GONE.has(status)) return 'gone';
      throw e;
    }
  }
}
