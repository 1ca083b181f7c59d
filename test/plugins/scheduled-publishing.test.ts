import t from 'tap';
import { buildApp } from '#src/app.ts';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview, approveForPublishing } from '#src/features/articles/writing.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase, testClock, testConfig } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';

t.test('the job queue publishes scheduled articles by itself, without a page load', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const author = await createMember(db, alpha);
  const editor = { userId: (await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] })).id, isStaff: true };
  const config = testConfig({ DEFAULT_COMMUNITY: 'alpha' });
  const probe = await buildApp({ config, db, clock });
  await probe.ready();
  const deps = { db, clock, community: alpha, t: probe.t, notifier: probe.notifications };
  await acceptProductAgreement(deps, author.id);
  await saveByline(deps, author.id, '<p>Author</p>');
  const words = `<p>${Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ')}</p>`;
  const a = await autosaveRevision(deps, author.id, { title: 'Due', content: words });
  await submitForReview(deps, author.id, { articleId: a.id, title: 'Due', content: words, agreed: true });
  for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId: a.id, to });
  await approveForPublishing(deps, author.id, { articleId: a.id, agreed: true });
  await moveArticle(deps, editor, { articleId: a.id, to: 'SCHEDULED', scheduledDate: '2026-11-21T12:00:30Z' });
  await probe.close();
  clock.advance(60_000);

  // Workers are on outside tests; build an app with them on the same database and clock: on start it
  // runs the scheduled jobs once (then every minute), and a worker publishes the article.
  const app = await buildApp({ config, db, clock, jobWorkers: true });
  await app.ready();
  for (let i = 0; i < 300; i++) {
    const row = await db.selectFrom('articles').select('status').where('id', '=', a.id).executeTakeFirstOrThrow();
    if (row.status === 'PUBLISHED') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await app.close();
  const row = await db.selectFrom('articles').select(['status', 'published_date']).where('id', '=', a.id).executeTakeFirstOrThrow();
  t.equal(row.status, 'PUBLISHED');
  t.same(row.published_date, clock.now());
});
