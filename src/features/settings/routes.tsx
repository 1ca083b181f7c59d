import type { FastifyInstance } from 'fastify';
import { SettingsPage, type SettingsSection } from '#views/settings/SettingsPage.tsx';

/**
 * /settings sections not built yet (spec section 2). Signed out, the Guardian sends them to sign-in
 * with a way back. Each section's own routes file takes its line out of this list.
 */
const NOT_YET: SettingsSection[] = [
  'security',
];

export default async function settingsRoutes(app: FastifyInstance) {
  const member = { config: { access: 'member' as const } };
  const show = (section: SettingsSection) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.page({ title: app.t(`settings.sections.${section}`), body: <SettingsPage section={section} /> });
  if (NOT_YET.includes('security')) app.get('/settings', member, show('security'));
  for (const section of NOT_YET) app.get(`/settings/${section}`, member, show(section));
}
