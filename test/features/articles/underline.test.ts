import t from 'tap';
import { acceptProductAgreement } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision } from '#src/features/articles/writing.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

t.test('a revision stored with an underlined span shows underlined', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const clock = testClock();
  const { app } = await startApp(t, db, { clock });
  const author = await createMember(db, alpha, { firstName: 'Ada' });
  const admin = await createMember(db, alpha, { firstName: 'Ed', roles: ['ADMIN', 'MEMBER'] });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  await acceptProductAgreement(deps, author.id);
  const article = await autosaveRevision(deps, author.id, { title: 'Old', content: '<p>plain</p>' });
  // What an older version of the app stored.
  await db.updateTable('article_revisions').set({ content: '<p>An <span style="text-decoration:underline">underlined</span> word</p>' }).where('article_id', '=', article.id).execute();

  const member = new FormBrowser(app);
  member.cookies.set('auth', (await signIn(app, author, alpha)).token);
  const editor = await member.get('/articles/edit');
  t.match(editor.body, 'An &lt;u&gt;underlined&lt;/u&gt; word', 'the editor island gets <u>');
  t.notMatch(editor.body, 'text-decoration', 'and no inline style anywhere on the page');

  const staff = new FormBrowser(app);
  staff.cookies.set('auth', (await signIn(app, admin, alpha, ['ADMIN', 'MEMBER'])).token);
  const board = await staff.get(`/admin/articles/${article.id}`);
  t.equal(board.statusCode, 200);
  t.match(board.body, '<p>An <u>underlined</u> word</p>', 'the admin preview shows <u>');
  t.notMatch(board.body, 'text-decoration');
});
