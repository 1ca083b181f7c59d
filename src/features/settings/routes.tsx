import type { FastifyInstance } from 'fastify';
import { SETTINGS_SECTIONS, SettingsPage, type SettingsSection } from '#views/settings/SettingsPage.tsx';

/**
 * /settings and its sections (spec section 2). Signed out, the Guardian sends them to sign-in with a
 * way back. The sections' forms arrive with the settings area; until then each section says so
 * (decision 0010) instead of the user menu's Settings link ending on a 404.
 */
export default async function settingsRoutes(app: FastifyInstance) {
  const member = { config: { access: 'member' as const } };
  const show = (section: SettingsSection) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.page({ title: app.t(`settings.sections.${section}`), body: <SettingsPage section={section} /> });
  app.get('/settings', member, show('security'));
  for (const section of SETTINGS_SECTIONS) app.get(`/settings/${section}`, member, show(section));
}
