import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { approveForPublishing, autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { words } from '#test/helpers/articles.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

t.test("a published article's live address is a link on /articles/published", async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const author = await createMember(db, alpha, { firstName: 'Ada' });
  const staff = await createMember(db, alpha, { firstName: 'Ed', roles: ['ADMIN', 'MEMBER'] });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const editor = { userId: staff.id, isStaff: true };
  await acceptProductAgreement(deps, author.id);
  await saveByline(deps, author.id, '<p>Founder of Acme</p>');
  const a = await autosaveRevision(deps, author.id, { title: 'Live one', content: words(520) });
  await submitForReview(deps, author.id, { articleId: a.id, title: 'Live one', content: words(520), agreed: true });
  for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId: a.id, to });
  await approveForPublishing(deps, author.id, { articleId: a.id, agreed: true });
  await moveArticle(deps, editor, { articleId: a.id, to: 'MANUALLY_PUBLISHED', articleUrl: 'https://news.example/story?id=7&x=1' });

  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, author, alpha)).token);
  const page = await b.get('/articles/published');
  t.equal(page.statusCode, 200);
  t.match(page.body, 'Live one');
  t.match(page.body, /<a href="https:\/\/news\.example\/story\?id=7&amp;x=1" rel="noopener" class="live-address">https:\/\/news\.example\/story\?id=7&amp;x=1<\/a>/, 'the address is shown, as a link to itself');
});
