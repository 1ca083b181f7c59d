import type { FastifyInstance } from 'fastify';
import { HomePage } from '#views/home/HomePage.tsx';

export default async function homeRoutes(app: FastifyInstance) {
  app.get('/', { config: { access: 'public' } }, async (_request, reply) =>
    reply.page({ title: app.t('home.title'), body: <HomePage /> }),
  );
}
