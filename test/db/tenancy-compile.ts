/**
 * Type-level proof of the tenancy guard (src/db/tenancy.ts), checked by the type check over test/
 * (`npm run typecheck`, in CI): on `Db`, a community's table does not compile without its tenant;
 * a table outside any community does. Each `@ts-expect-error` fails the type check if the line
 * below it ever compiles. Never run: the functions only need to type-check.
 */
import type { Db } from '#src/db/index.ts';
import { crossCommunity, deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';

export function communityTablesNeedTheTenant(db: Db, community: Tenant) {
  // @ts-expect-error forum_posts belongs to a community: selectInCommunity(db, 'forum_posts', community)
  db.selectFrom('forum_posts');
  // @ts-expect-error aliased, it is still a community's table
  db.selectFrom('forum_posts as p');
  // @ts-expect-error articles belongs to a community: insertInCommunity(db, 'articles', community, ...)
  db.insertInto('articles');
  // @ts-expect-error updating a community's table needs updateInCommunity
  db.updateTable('memberships');
  // @ts-expect-error deleting from a community's table needs deleteInCommunity
  db.deleteFrom('sessions');
  // @ts-expect-error one community's table in a list is enough to refuse it
  db.selectFrom(['users', 'memberships']);

  // Outside any community: users, communities.
  db.selectFrom('users').select(['id', 'email']);
  db.selectFrom('communities').select('code');

  // Through the helpers, with the tenant.
  selectInCommunity(db, 'forum_posts', community).select('id');
  insertInCommunity(db, 'articles', community, { author_id: 1, status_updated_at: new Date(), created_at: new Date(), updated_at: new Date() });
  updateInCommunity(db, 'memberships', community).set({ is_active: false });
  deleteInCommunity(db, 'sessions', community);
  // @ts-expect-error the helpers set community_id from the tenant; the values may not name one
  insertInCommunity(db, 'forum_topics', community, { name: 'x', community_id: 2 });

  // The named way out (test/db/cross-community.test.ts holds who may use it in src/).
  crossCommunity(db).selectFrom('forum_posts').select('id');
}
