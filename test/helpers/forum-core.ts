import type { Test } from 'tap';
import { AppError } from '#src/core/errors.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { ForumDeps, ForumViewer } from '#src/features/forum/deps.ts';
import { REPLY_NOTICES_JOB } from '#src/features/forum/notices.ts';
import { setupDatabase, startApp, testClock } from './app.ts';
import { createCommunity, createMember, type TestUser } from './factories.ts';

/**
 * A forum world for the core services' tests: three communities (alpha and beta with the forum on,
 * `off` without), an app on one database, deps per community, and members who joined long ago
 * (so their posts do not wait) unless asked otherwise.
 */
export async function forumWorld(t: Test) {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', forum_enabled: true });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'], forum_enabled: true });
  const off = await createCommunity(db, { code: 'off', hosts: ['off.test'], forum_enabled: false });
  const { app } = await startApp(t, db, { clock });
  const depsFor = (community: Community): ForumDeps => ({
    db,
    clock,
    community,
    t: app.t,
    notifier: app.notifications,
    publicUrl: `${app.config.publicUrl}${app.config.basePath}`,
    jobs: app.jobs,
  });

  /** A member; joined a year before the clock unless `isNew`; `username` when given. */
  async function member(
    community: Community,
    options: { firstName?: string; lastName?: string; isNew?: boolean; moderator?: boolean; staff?: boolean; username?: string } = {},
  ): Promise<TestUser & { viewer: ForumViewer }> {
    const user = await createMember(db, community, { firstName: options.firstName, lastName: options.lastName, roles: options.staff ? ['ADMIN', 'MEMBER'] : ['MEMBER'] });
    const joined = options.isNew ? new Date(clock.now().getTime() - 24 * 60 * 60 * 1000) : new Date(clock.now().getTime() - 365 * 24 * 60 * 60 * 1000);
    await db
      .updateTable('memberships')
      .set({ joined_at: joined, is_moderator: options.moderator ?? false })
      .where('user_id', '=', user.id)
      .where('community_id', '=', community.id)
      .execute();
    if (options.username) await db.updateTable('users').set({ username: options.username }).where('id', '=', user.id).execute();
    return { ...user, viewer: { userId: user.id, isStaff: options.staff ?? false } };
  }

  async function topic(community: Community, name: string, position = 0, archived = false): Promise<number> {
    const row = await db
      .insertInto('forum_topics')
      .values({ community_id: community.id, name, position, archived_at: archived ? clock.now() : null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The forum notifications a member received, oldest first (after the queued reply notices ran). */
  async function forumNotes(userId: number) {
    await app.jobs.drain([REPLY_NOTICES_JOB]);
    return db.selectFrom('notifications').select(['message', 'url']).where('user_id', '=', userId).where('kind', '=', 'forum').orderBy('id').execute();
  }

  return { db, clock, app, alpha, beta, off, depsFor, member, topic, forumNotes };
}

/** Awaits a promise that must fail with an AppError of `code`; returns the error for more checks. */
export async function rejects(t: Test, p: Promise<unknown>, code: string | number, message: string): Promise<AppError | null> {
  try {
    await p;
    t.fail(`${message}: expected ${code}`);
  } catch (e) {
    if (!(e instanceof AppError)) {
      t.fail(`${message}: expected an AppError, got ${String(e)}`);
      return null;
    }
    t.equal(e.code, code, message);
    return e;
  }
  return null;
}

/** The message of a field error, as the form would show it. */
export const fieldMessage = (app: { t: (k: string, v?: Record<string, unknown>) => string }, e: AppError | null, field: string) => {
  const f = e?.fields?.[field];
  return f ? app.t(f.key, f.values) : undefined;
};

/** `db` counting the statements it runs, as they run (a subquery built apart is transformed, not run, on its own). */
export function countingDb(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const counting = db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      statements.push(args.queryId.queryId);
      return args.result;
    },
  });
  return { db: counting as unknown as Db, statements };
}
