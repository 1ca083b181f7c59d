import type { Area } from '#src/features/area.ts';
import { memberNotificationKinds } from './notification-kinds.ts';
import { memberErrors } from './errors.ts';
import adminMembersRoutes from './admin-routes.tsx';
import { adminMembersAdminGraphQL } from './admin-graphql.ts';
import directoryRoutes from './directory-routes.tsx';
import { directoryMemberGraphQL } from './directory-graphql.ts';
import introductionRoutes from './introduction-routes.tsx';
import { introductionAdminGraphQL, introductionMemberGraphQL } from './introduction-graphql.ts';
import profileRoutes from './profile-routes.tsx';
import { profileMemberGraphQL } from './profile-graphql.ts';
import { seedAdminMembers } from './seed-admin-members.ts';
import { seedDirectory } from './seed-directory.ts';
import { seedIntroductions } from './seed-introductions.ts';
import { seedSites } from './seed-sites.ts';

/** The members area: introductions, profiles, the staff's members area and the directory. */
export const area: Area = {
  name: 'members',
  errors: memberErrors,
  notificationKinds: memberNotificationKinds,
  routes: [introductionRoutes, profileRoutes, adminMembersRoutes, directoryRoutes],
  graphql: {
    member: [introductionMemberGraphQL, profileMemberGraphQL, directoryMemberGraphQL],
    admin: [introductionAdminGraphQL, adminMembersAdminGraphQL],
  },
  seed: async (trx, demo) => {
    await seedSites(trx, { adminId: demo.adminId });
    await seedDirectory(trx, { communities: demo.byCode, passwordHash: demo.passwordHash });
    await seedAdminMembers(trx, { byCode: demo.byCode, adminId: demo.adminId });
    await seedIntroductions(trx, { communityId: demo.byCode.summit!, staffId: demo.adminId });
    // Every member gets a generated face but a few (the demo's other areas add no members). Loaded
    // here only: the generator (half a megabyte of drawings) stays out of every process that does not seed.
    const { seedAvatars } = await import('./seed-avatars.ts');
    await seedAvatars(trx);
  },
};
