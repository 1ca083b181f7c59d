import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';

const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `w${i}`).join(' ')}</p>`;

t.test('one article in flight per member, even when two first saves race', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const editor = { userId: (await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] })).id, isStaff: true };
  const member = await createMember(db, alpha);
  await acceptProductAgreement(deps, member.id);
  await saveByline(deps, member.id, '<p>Writes.</p>');
  const inFlight = () => db.selectFrom('articles').select(['id', 'status']).where('author_id', '=', member.id).orderBy('id').execute();

  await t.test('two first autosaves at once (a save on the wire and Save & exit) make one article', async (t) => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => autosaveRevision(deps, member.id, { title: `Take ${i}`, content: words(10) })));
    const rows = await inFlight();
    t.equal(rows.length, 1, 'one article');
    t.same(new Set(results.map((r) => r.id)).size, 1, 'every save wrote to it');
  });

  await t.test('an article brought back in flight while the member writes another is refused with a clear message', async (t) => {
    const [first] = await inFlight();
    await submitForReview(deps, member.id, { articleId: first!.id, title: 'First', content: words(510), agreed: true });
    await moveArticle(deps, editor, { articleId: first!.id, to: 'TRASHED' });
    const second = await autosaveRevision(deps, member.id, { title: 'Second', content: words(5) });
    t.not(second.id, first!.id, 'with the first in the trash, the member starts another');
    await t.rejects(moveArticle(deps, editor, { articleId: first!.id, to: 'DRAFT' }), { code: 'Articles.OtherInFlight' });
    t.same((await inFlight()).map((r) => r.status), ['TRASHED', 'DRAFT'], 'nothing changed');
    t.equal(app.t('articles.errors.otherInFlight'), 'The member has another article in progress: finish or remove that one first.');
  });
});
