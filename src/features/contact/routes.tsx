import type { FastifyInstance } from 'fastify';
import { ContactPage } from '#src/features/contact/views/ContactPage.tsx';

/**
 * /contact: the concierge's email and phone, for everyone (a visitor who cannot sign in needs it most,
 * and the error notice links here). The Contact us links of the footer, the user menu and the error
 * notice point here; on member pages a script opens the same details in a dialog instead.
 */
export default async function contactRoutes(app: FastifyInstance) {
  app.get('/contact', { config: { access: 'public', allowDuringOnboarding: true } }, async (_request, reply) => {
    return reply.page({ title: app.t('shell.contact.title'), body: <ContactPage /> });
  });
}
