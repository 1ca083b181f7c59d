import type { FastifyInstance } from 'fastify';
import { HomePage } from '#src/features/home/views/HomePage.tsx';
import { whatsNew } from './whats-new.ts';

export default async function homeRoutes(app: FastifyInstance) {
  app.get('/', { config: { access: 'public' } }, async (request, reply) => {
    // Signed in: what is happening in the community. Signed out: the welcome (no query at all).
    const news = request.guardian.isMember ? await whatsNew({ db: app.db, clock: app.clock, community: request.community, t: app.t }, request.guardian.userId!) : null;
    return reply.page({ title: app.t('home.title'), body: <HomePage news={news} /> });
  });
}
