import t from 'tap';
import { acceptProductAgreement } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision } from '#src/features/articles/writing.ts';
import { BOARD_PAGE_SIZE, searchBoard } from '#src/features/articles/board.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

t.test('the editors’ board pages forward and back, in both sorts, and says how many match', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edna' });
  const editor = { userId: editorUser.id, isStaff: true };
  const count = BOARD_PAGE_SIZE * 2 + 10;
  for (let i = 0; i < count; i++) {
    const member = await createMember(db, alpha, { firstName: `M${i}` });
    await acceptProductAgreement(deps, member.id);
    await autosaveRevision(deps, member.id, { title: `Draft ${String(i).padStart(2, '0')}`, content: '<p>Words.</p>' });
    // Two articles share each moment: the id breaks the tie.
    if (i % 2) clock.advance(1000);
  }

  for (const sort of ['newest', 'oldest'] as const) {
    await t.test(`sorted ${sort}`, async (t) => {
      const forward: string[][] = [];
      let page = await searchBoard(deps, editor, { sort });
      t.equal(page.previous, null, 'the first page has no previous page');
      t.equal(page.total, count);
      const cursors: Array<string | null> = [];
      for (;;) {
        forward.push(page.rows.map((r) => r.title ?? ''));
        cursors.push(page.previous);
        if (!page.next) break;
        page = await searchBoard(deps, editor, { sort, after: page.next });
      }
      t.same(forward.map((p) => p.length), [BOARD_PAGE_SIZE, BOARD_PAGE_SIZE, 10]);
      const all = forward.flat();
      t.equal(new Set(all).size, count, 'every article once');
      const expected = Array.from({ length: count }, (_, i) => `Draft ${String(i).padStart(2, '0')}`);
      t.same(all, sort === 'oldest' ? expected : [...expected].reverse(), 'in order');
      // And back from the last page, by the Previous cursors.
      const back: string[][] = [];
      for (let i = forward.length - 1; i >= 1; i--) {
        const before = cursors[i]!;
        const previous = await searchBoard(deps, editor, { sort, before });
        back.push(previous.rows.map((r) => r.title ?? ''));
        t.ok(previous.next, 'a page reached going back has a next page');
        if (i === 1) t.equal(previous.previous, null, 'back on the first page');
        else t.ok(previous.previous);
      }
      t.same(back, forward.slice(0, -1).reverse(), 'the same pages, going back');
    });
  }

  await t.test('the page shows the count and the links, without JavaScript', async (t) => {
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, editorUser, alpha, ['ADMIN', 'MEMBER'])).token);
    const first = await b.get('/admin/articles?status=DRAFT');
    t.match(first.body, `${count} articles match`);
    t.notMatch(first.body, 'Previous page');
    const next = /href="([^"]*after=[^"]*)">Next page/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    t.ok(next, 'a Next page link');
    const second = await b.get(next!);
    t.match(second.body, 'Draft 34', 'the second page');
    t.match(second.body, 'status=DRAFT', 'the links keep the filters');
    const previous = /href="([^"]*before=[^"]*)">Previous page/.exec(second.body)?.[1]?.replace(/&amp;/g, '&');
    t.ok(previous, 'a Previous page link');
    t.match(second.body, /href="\/admin\/articles\?status=DRAFT&amp;sort=newest">First page/);
    const back = await b.get(previous!);
    t.match(back.body, 'Draft 59', 'back on the first page');
    t.notMatch(back.body, 'Previous page');
    t.match((await b.get('/admin/articles?q=Draft%2007')).body, '1 article matches');
  });
});
