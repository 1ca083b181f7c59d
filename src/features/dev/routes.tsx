import type { FastifyInstance } from 'fastify';
import { OutboxPage } from '#src/features/dev/views/OutboxPage.tsx';

/** Development-only pages: never registered in production. */
export default async function devRoutes(app: FastifyInstance) {
  if (app.config.isProduction) return;
  app.get('/dev/outbox', { config: { access: 'public', allowDuringOnboarding: true } }, async (_request, reply) =>
    reply.page({ title: app.t('auth.outbox.title'), body: <OutboxPage messages={app.outbox.messages} /> }),
  );
}
