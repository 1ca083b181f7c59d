// Loaded by the bench's server processes only (dynamically), never by the bench process itself.
import type { FastifyInstance } from 'fastify';
import type { Community } from '#src/db/types.ts';
import { startSession } from '#src/features/auth/sessions.ts';

/**
 * A session for a demo user of the community, made the way test/helpers/factories.ts `signIn` makes
 * it (no password check): the auth token to send as the `auth` cookie.
 */
export async function sessionTokenFor(app: FastifyInstance, community: Community, email: string): Promise<string> {
  const user = await app.db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'memberships.roles', 'memberships.gate'])
    .where('users.email', '=', email)
    .where('memberships.community_id', '=', community.id)
    .executeTakeFirstOrThrow();
  const { token } = await startSession(app.db, app.sessionTokens, app.clock, {
    userId: user.id,
    community,
    roles: user.roles,
    gate: user.gate,
    basePath: app.config.basePath,
  });
  return token;
}
