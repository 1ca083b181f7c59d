import type { FastifyInstance } from 'fastify';
import { AdminHome } from '#views/admin/AdminHome.tsx';

/** The admin area's front page (ADMIN only; the Guardian sends others to sign-in with a way back). */
export default async function adminRoutes(app: FastifyInstance) {
  app.get('/admin', { config: { access: 'admin' } }, async (_request, reply) => reply.page({ title: app.t('admin.home.title'), body: <AdminHome /> }));
}
