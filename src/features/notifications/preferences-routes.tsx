import { selectInCommunityAs } from '#src/db/tenancy.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formOf, queryOf } from '#src/lib/form.ts';
import { AppError, isAppError } from '#src/core/errors.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { NotificationPreferences } from '#src/features/notifications/views/NotificationPreferences.tsx';
import { UnsubscribeConfirm, UnsubscribeDone, UnsubscribeInvalid } from '#src/features/notifications/views/Unsubscribe.tsx';
import { mailContext, unsubscribePath } from './email-delivery.ts';
import { preferencesOf, savePreferencesForm, stopEmail } from './preferences.ts';
import type { UnsubscribeClaims } from './unsubscribe.ts';

/**
 * The preferences form: a box per kind and channel (named by the catalogue, present when ticked) and
 * the digest; each a value as text (the service checks the digest's and reads the boxes it knows).
 */
const PreferencesForm = z.record(z.string(), z.string().max(1000));
/** An unsubscribe link's token: anything but text is no token (the invalid-link page). */
const UnsubscribeQuery = z.object({ token: z.string().optional().catch(undefined) });

/**
 * The member's notification preferences (/settings/notifications: one form without JavaScript, each
 * box saved at once through GraphQL with it) and the public unsubscribe links of notification email.
 */
export default async function preferenceRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  // The one-click unsubscribe (RFC 8058) is POSTed by mail providers without cookies or a page: its
  // authority is the signed token in its address (plugins/types.ts, csrf 'signed-link').
  const signedLink = { config: { access: 'public' as const, csrf: 'signed-link' as const } };
  const memberOf = (request: FastifyRequest) => ({ communityId: request.community.id, userId: request.guardian.userId! });

  app.get('/settings/notifications', member, async (request, reply) => {
    const view = await preferencesOf(app.db, memberOf(request), t);
    return reply.page({ title: t('preferences.page.title'), body: <NotificationPreferences view={view} /> });
  });

  app.post('/settings/notifications', member, async (request, reply) => {
    await savePreferencesForm(app.db, memberOf(request), formOf(PreferencesForm, request), app.clock.now());
    return reply.redirectTo(withAlert('/settings/notifications', 'notification-preferences-saved'));
  });

  /** The token's claims and community, or the invalid-link page (400). */
  async function claimsOf(request: FastifyRequest): Promise<(UnsubscribeClaims & { communityName: string }) | null> {
    const { token } = queryOf(UnsubscribeQuery, request);
    try {
      const claims = await mailContext(app).tokens.verify(token);
      // The member still belongs to the token's community (a link outlives a membership).
      const row = await selectInCommunityAs(app.db, 'memberships', 'm', { id: claims.communityId })
        .innerJoin('communities as c', 'c.id', 'm.community_id')
        .select('c.name')
        .where('m.user_id', '=', claims.userId)
        .executeTakeFirst();
      if (!row) throw new AppError('Notifications.InvalidUnsubscribeLink');
      return { ...claims, communityName: row.name };
    } catch (e) {
      if (isAppError(e) && e.code === 'Notifications.InvalidUnsubscribeLink') return null;
      throw e;
    }
  }

  const invalid = (reply: FastifyReply) =>
    reply.page({ title: t('preferences.unsubscribe.invalidTitle'), status: 400, body: <UnsubscribeInvalid message={t('preferences.errors.invalidUnsubscribeLink')} /> });

  const kindName = (kind: string) => t(`notifications.kinds.${kind}.name`);

  app.get('/notifications/unsubscribe', { config: { access: 'public' as const, allowDuringOnboarding: true } }, async (request, reply) => {
    const claims = await claimsOf(request);
    if (!claims) return invalid(reply);
    const all = claims.kind === '*';
    const token = String(queryOf(UnsubscribeQuery, request).token);
    return reply.page({
      title: t('preferences.unsubscribe.title'),
      body: (
        <UnsubscribeConfirm
          action={unsubscribePath(token)}
          question={all ? t('preferences.unsubscribe.confirmAll', { community: claims.communityName }) : t('preferences.unsubscribe.confirmKind', { kind: kindName(claims.kind), community: claims.communityName })}
          explain={t(all ? 'preferences.unsubscribe.explainAll' : 'preferences.unsubscribe.explainKind')}
        />
      ),
    });
  });

  // The one-click POST in a child plugin of its own: RFC 8058 allows its body as multipart/form-data
  // too; its content is not needed (the token is in the address), so for this route alone such a body
  // is read up to a small limit and dropped. Every other route still refuses multipart (415).
  await app.register(async (child) => {
    child.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, {}));
    child.post('/notifications/unsubscribe', signedLink, async (request, reply) => {
      const claims = await claimsOf(request);
      if (!claims) return invalid(reply);
      await stopEmail(app.db, claims, claims.kind, app.clock.now());
      return reply.page({
        title: t('preferences.unsubscribe.doneTitle'),
        body: <UnsubscribeDone message={claims.kind === '*' ? t('preferences.unsubscribe.doneAll') : t('preferences.unsubscribe.doneKind', { kind: kindName(claims.kind) })} />,
      });
    });
  });
}
