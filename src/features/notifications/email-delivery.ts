import type { FastifyInstance } from 'fastify';
import type { Translate } from '#src/core/i18n.ts';
import { formatDate } from '#shared/format.ts';
import type { OutgoingMail } from '#src/lib/messaging/mail.ts';
import { claimDelivery } from './claims.ts';
import type { ChannelSender, Delivery } from './types.ts';
import { UnsubscribeTokens } from './unsubscribe.ts';

/**
 * Email delivery. At once: one transaction claims the delivery (notification, 'email', address) and
 * enqueues the mail (the durable messages.mail job) only if this run made the claim, so a retried
 * deliver job never mails twice. A member who chose the daily digest: the claim is made with status
 * 'digest' and nothing is sent now; the hourly notifications.digest job (digest.ts) gathers those.
 */
export function emailSender(app: FastifyInstance): ChannelSender {
  return {
    channel: 'email',
    async send(d: Delivery) {
      const now = app.clock.now();
      const address = d.member.email;
      if (d.emailDigest) {
        await claimDelivery(app.db, d, 'email', address, 'digest', now);
        return;
      }
      const mail = await notificationMail(mailContext(app), d);
      await app.db.transaction().execute(async (trx) => {
        if (await claimDelivery(trx, d, 'email', address, 'sent', now)) await app.messages.mail(trx, mail);
      });
    },
  };
}

/** What building a notification email needs: words, addresses and the unsubscribe link signer. */
export type MailContext = { t: Translate; siteUrl: string; mailFrom: string; tokens: UnsubscribeTokens };

const signers = new Map<string, UnsubscribeTokens>();

export function mailContext(app: FastifyInstance): MailContext {
  const secret = app.config.cookieSecret;
  let tokens = signers.get(secret);
  if (!tokens) signers.set(secret, (tokens = new UnsubscribeTokens(secret)));
  return { t: app.t, siteUrl: `${app.config.publicUrl}${app.config.basePath}`, mailFrom: app.config.mailFrom, tokens };
}

export const unsubscribePath = (token: string) => `/notifications/unsubscribe?token=${encodeURIComponent(token)}`;

/** RFC 2369 / RFC 8058: the one-click unsubscribe a mail client offers beside the sender. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

const fromOf = (ctx: MailContext, communityName: string) => `"${communityName.replace(/["\\\r\n]/g, '')}" <${ctx.mailFrom}>`;

/** One notification as one email, with its one-click unsubscribe for the notification's kind. */
export async function notificationMail(ctx: MailContext, d: Delivery): Promise<OutgoingMail> {
  const { t } = ctx;
  const n = d.notification;
  const kindName = t(`notifications.kinds.${n.kind}.name`);
  const token = await ctx.tokens.sign({ communityId: n.community_id, userId: n.user_id, kind: n.kind });
  const unsubscribe = `${ctx.siteUrl}${unsubscribePath(token)}`;
  const text = t('preferences.email.single', {
    firstName: d.member.firstName,
    message: n.message,
    link: `${ctx.siteUrl}${n.url}`,
    kind: kindName,
    unsubscribe,
    settings: `${ctx.siteUrl}/settings/notifications`,
  });
  return {
    to: d.member.email,
    from: fromOf(ctx, d.community.name),
    subject: t('preferences.email.subject', { community: d.community.name, kind: kindName }),
    text,
    headers: unsubscribeHeaders(unsubscribe),
  };
}

export type DigestItem = { kind: string; message: string; url: string; createdAt: Date };

/**
 * The daily digest: the items newest first, each with its link; an unsubscribe link per kind listed
 * and one for all notification email (the one the List-Unsubscribe header carries).
 */
export async function digestMail(
  ctx: MailContext,
  member: { communityId: number; userId: number; email: string; firstName: string; communityName: string },
  items: DigestItem[],
): Promise<OutgoingMail> {
  const { t } = ctx;
  const sorted = [...items].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const link = async (kind: string) => `${ctx.siteUrl}${unsubscribePath(await ctx.tokens.sign({ communityId: member.communityId, userId: member.userId, kind }))}`;
  const kinds = [...new Set(sorted.map((i) => i.kind))];
  const perKind = await Promise.all(kinds.map(async (kind) => t('preferences.digest.unsubscribeKind', { kind: t(`notifications.kinds.${kind}.name`), link: await link(kind) })));
  const all = await link('*');
  const list = sorted.map((i) => t('preferences.digest.item', { message: i.message, date: formatDate(i.createdAt), link: `${ctx.siteUrl}${i.url}` })).join('\n\n');
  const text = t('preferences.digest.body', {
    firstName: member.firstName,
    community: member.communityName,
    count: sorted.length,
    list,
    unsubscribeKinds: perKind.join('\n'),
    unsubscribeAll: all,
    settings: `${ctx.siteUrl}/settings/notifications`,
  });
  return {
    to: member.email,
    from: fromOf(ctx, member.communityName),
    subject: t('preferences.digest.subject', { community: member.communityName, count: sorted.length }),
    text,
    headers: unsubscribeHeaders(all),
  };
}
