import type { FastifyInstance } from 'fastify';
import { OutboxPage } from '#src/features/dev/views/OutboxPage.tsx';
import { STYLES_PATH, StylesPage } from '#src/features/dev/views/StylesPage.tsx';

/** Development-only pages: never registered in production. */
export default async function devRoutes(app: FastifyInstance) {
  if (app.config.isProduction) return;
  app.get('/dev/outbox', { config: { access: 'public', allowDuringOnboarding: true } }, async (_request, reply) =>
    reply.page({ title: app.t('auth.outbox.title'), body: <OutboxPage messages={app.outbox.messages} /> }),
  );

  // The living style page (issue 30, docs/design-system.md): only when the app runs in development
  // (`npm run dev`), not in tests unless a test sets NODE_ENV=development. `?frame=phone` is the same
  // gallery without the shell, for the page's own phone-width frame: that answer alone may be framed,
  // and only by this site.
  if (app.config.env !== 'development') return;
  app.get(STYLES_PATH, { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const framed = (request.query as { frame?: unknown }).frame === 'phone';
    if (framed) {
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string') reply.header('content-security-policy', csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
    }
    return reply.page({ title: app.t('devStyles.title'), body: <StylesPage framed={framed} />, bare: framed, rail: false });
  });
}
