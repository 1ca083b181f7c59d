import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import type { Clock } from '#src/core/clock.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { EpDeps, EpViewer } from '#src/features/expert-panels/deps.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, type TestUser } from '#test/helpers/factories.ts';

/** A service's dependencies for a community, as a request would have them. */
export function epDepsFor(app: FastifyInstance, community: Community, clock: Clock = app.clock): EpDeps {
  return { db: app.db, clock, community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs };
}

/**
 * What every expert-panels test world starts from: one database for the test file, a fixed clock,
 * two communities (alpha, the default host; beta at beta.test), an app on them, the services' deps per
 * community, and members (staff when asked) with their viewer. The worlds add the rows their slice needs.
 */
export async function epBaseWorld(t: Test, options: { alphaForum?: boolean } = {}) {
  const db: Db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', ...(options.alphaForum ? { forum_enabled: true } : {}) });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app, config } = await startApp(t, db, { clock });
  const depsFor = (community: Community): EpDeps => epDepsFor(app, community, clock);

  async function member(community: Community, options: { firstName?: string; lastName?: string; staff?: boolean; companyName?: string } = {}): Promise<TestUser & { viewer: EpViewer }> {
    const user = await createMember(db, community, { firstName: options.firstName, lastName: options.lastName, companyName: options.companyName, roles: options.staff ? ['ADMIN', 'MEMBER'] : ['MEMBER'] });
    return { ...user, viewer: { userId: user.id, isStaff: options.staff ?? false } };
  }

  return { db, clock, app, config, alpha, beta, depsFor, member };
}
