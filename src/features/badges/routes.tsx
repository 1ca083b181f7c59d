import type { FastifyInstance } from 'fastify';
import { BadgesPage } from '#src/features/badges/views/BadgesPage.tsx';
import { badgeDeps } from './deps.ts';
import { badgesPage } from './read.ts';

/** /badges: the signed-in member's badges and the ones they can still earn (no script). */
export default async function badgeRoutes(app: FastifyInstance) {
  app.get('/badges', { config: { access: 'member' } }, async (request, reply) => {
    const data = await badgesPage(badgeDeps(request), request.guardian.userId!);
    return reply.page({ title: app.t('badges.title'), body: <BadgesPage data={data} /> });
  });
}
