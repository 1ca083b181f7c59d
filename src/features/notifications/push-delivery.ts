import { deleteInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { FastifyInstance } from 'fastify';
import { claimDelivery, releaseDelivery } from './claims.ts';
import { endpointAllowed } from './push/tokens.ts';
import type { PushContent, PushResult, PushServices } from './push/types.ts';
import type { ChannelSender, Delivery } from './types.ts';

/**
 * Mobile push and Web Push: one push to each of the member's devices and browsers in the
 * notification's community. Each (notification, token) is claimed before it is sent, so a retried job
 * never pushes twice to the same device; a push that failed for now releases its claim and, once the
 * other devices had theirs, the job fails so that its retry sends only what failed. A device the
 * provider says is gone loses its token; so does a browser whose endpoint the rule for endpoints
 * (endpointAllowed: in production a known push service) now refuses, without a push.
 */
export function pushSender(app: FastifyInstance): ChannelSender {
  return {
    channel: 'push',
    async send(delivery: Delivery) {
      await sendPushes(app.db, app.push, app.clock.now.bind(app.clock), delivery, `${app.config.publicUrl}${app.config.basePath}`, app.config.isProduction);
    },
  };
}

export async function sendPushes(
  db: FastifyInstance['db'],
  push: PushServices,
  now: () => Date,
  delivery: Delivery,
  publicUrl: string,
  production: boolean,
): Promise<void> {
  const n = delivery.notification;
  const community: Tenant = delivery.community;
  const tokens = await selectInCommunity(db, 'push_tokens', community)
    .select(['id', 'token', 'platform', 'keys'])
    .where('user_id', '=', n.user_id)
    .orderBy('id')
    .execute();
  const link = new URL(`${publicUrl}${n.url}`);
  const content: PushContent = { title: delivery.community.app_name, body: n.message, url: link.href };
  // A browser gets the path alone: its service worker opens it on the site it was registered on (a
  // community on its own host), not on the default address.
  const webContent: PushContent = { ...content, url: `${link.pathname}${link.search}${link.hash}` };
  let failure: unknown = null;
  for (const t of tokens) {
    if (t.platform === 'web' && !push.web) continue; // Web Push is off: nothing to claim
    if (t.platform === 'web' && !endpointAllowed(t.token, production)) {
      await deleteInCommunity(db, 'push_tokens', community).where('id', '=', t.id).execute(); // stored before the rule: never POSTed to
      continue;
    }
    if (!(await claimDelivery(db, delivery, 'push', t.token, 'sent', now()))) continue;
    let result: PushResult;
    try {
      result =
        t.platform === 'web'
          ? t.keys
            ? await push.web!.send({ endpoint: t.token, keys: t.keys }, webContent)
            : 'gone'
          : await push.mobile.send({ ...content, token: t.token, platform: t.platform });
    } catch (e) {
      await releaseDelivery(db, community, n.id, 'push', t.token);
      failure ??= e;
      continue;
    }
    if (result === 'gone') await deleteInCommunity(db, 'push_tokens', community).where('id', '=', t.id).execute();
    else await updateInCommunity(db, 'push_tokens', community).set({ last_used_at: now() }).where('id', '=', t.id).execute();
  }
  if (failure) throw failure;
}
