import type { FastifyInstance } from 'fastify';
import { AdminHome } from '#views/admin/AdminHome.tsx';

/** The admin area's front page (ADMIN only; the Guardian sends others to sign-in with a way back). */
export default async function adminRoutes(app: FastifyInstance) {
  app.get('/admin', { config: { access: 'admin' } }, async (request, reply) => {
    // Spec section 2, "Access redirects": an admin of the community whose code is `admin` (the
    // network's own staff) lands on the sites page.
    if (request.community.code === 'admin') return reply.redirectTo('/admin/sites', 302);
    return reply.page({ title: app.t('admin.home.title'), body: <AdminHome /> });
  });
}
