import type { FastifyInstance } from 'fastify';
import { forumStaffKit } from './admin/kit.tsx';
import { forumModerationPages } from './admin/moderation.tsx';
import { forumOverviewPages, forumPeopleSettingsPages } from './admin/people-settings.tsx';
import { forumPostsPages } from './admin/posts.tsx';
import { forumTopicsPages } from './admin/topics.tsx';

/**
 * The staff's forum area (ADMIN only): /admin/forum and its sections, one module each under admin/.
 * Every action is a plain form POST that calls the moderation services (the same as GraphQL's), then
 * redirects back with a notice; a refused one re-renders its page with the message beside the field
 * and the text kept. Where the community's forum is off, every page says so and links to the site
 * settings that turn it on.
 */
export default async function forumAdminRoutes(app: FastifyInstance) {
  const kit = forumStaffKit(app);
  forumOverviewPages(app, kit);
  forumModerationPages(app, kit);
  forumPostsPages(app, kit);
  forumTopicsPages(app, kit);
  forumPeopleSettingsPages(app, kit);
}
