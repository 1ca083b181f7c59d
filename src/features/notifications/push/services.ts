import type { Config } from '#src/config.ts';
import type { Outbox } from '#src/lib/messaging/mail.ts';
import { HttpPushProvider, OutboxPushProvider } from './provider.ts';
import type { PushServices } from './types.ts';
import { vapidKeys, VapidWebPush } from './web-push.ts';

/**
 * The app's push services from its configuration: the HTTP provider with PUSH_URL and PUSH_KEY, else
 * the local outbox; Web Push with VAPID keys (see vapidKeys), else off with a warning.
 */
export function buildPushServices(config: Config, outbox: Outbox, warn: (message: string) => void): PushServices {
  const mobile = config.push ? new HttpPushProvider({ url: config.push.url, key: config.push.key }) : new OutboxPushProvider(outbox);
  if (!config.push && config.isProduction) warn('PUSH_URL and PUSH_KEY are not set: mobile push goes to the local outbox only');
  const keys = vapidKeys(config);
  if (!keys) warn('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: Web Push is off');
  return { mobile, web: keys ? new VapidWebPush(keys) : null };
}
