import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { createFeedback } from '#src/features/articles/feedback.ts';
import { editArticleText, moveArticle } from '#src/features/articles/review.ts';
import { publishDueArticles } from '#src/features/articles/publishing.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';

const words = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
/** The page as a reader sees it: without the islands' props (which repeat their texts). */
const shown = (html: string) => html.replace(/ data-props="[^"]*"/g, '');
/** How many times the reader meets this text on the page. */
const timesShown = (html: string, text: string) => shown(html).split(text).length - 1;

t.test('the articles pages, as a browser without JavaScript uses them', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, {
    code: 'alpha',
    article_terms: 'You keep the rights; we may edit and publish.',
    article_guidelines: 'Write from your own experience.',
  });
  const { app } = await startApp(t, db, { clock });
  const author = await createMember(db, alpha, { firstName: 'Ada' });
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ed' });
  const editor = { userId: editorUser.id, isStaff: true };
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const b = new FormBrowser(app);
  b.cookies.set('auth', (await signIn(app, author, alpha)).token);

  await t.test('a visitor is sent to sign-in; the editor too', async (t) => {
    const res = await app.inject({ url: '/articles/edit', headers: { accept: 'text/html' } });
    t.equal(res.headers.location, '/login?redirect=%2Farticles%2Fedit');
  });

  await t.test('the product agreement gates the area; confirming needs the box ticked, then the editor opens', async (t) => {
    const gate = await b.get('/articles');
    t.match(gate.body, 'Before you write');
    t.match(gate.body, 'You keep the rights; we may edit and publish.');
    t.match((await b.get('/articles/published')).body, 'Before you write');
    t.equal((await b.get('/articles/edit')).headers.location, '/articles');
    const unticked = await b.post('/articles/agreement', {}, '/articles');
    t.equal(unticked.statusCode, 400);
    t.match(unticked.body, 'Please tick the box to accept the terms.');
    const early = await b.post('/articles/settings', { byline: 'Before the terms.' }, '/articles/settings');
    t.equal(early.headers.location, '/articles', 'no byline is saved before the terms are accepted');
    const ok = await b.post('/articles/agreement', { acknowledge: 'on' }, '/articles');
    t.equal(ok.headers.location, '/articles/edit');
    t.match((await b.get('/articles/agreement')).body, 'You accepted the agreement on Nov 21, 2026.');
  });

  await t.test('the dashboard: nothing in flight, guidelines=true opens the guidelines panel', async (t) => {
    const res = await b.get('/articles?guidelines=true');
    t.match(res.body, 'You have no article in progress.');
    t.match(res.body, /<details class="panel" open="">/);
    t.match(res.body, 'Write from your own experience.');
  });

  await t.test('the first save creates the article; words are counted on the server; nothing typed is lost', async (t) => {
    const empty = await b.get('/articles/edit');
    t.match(empty.body, '0/1000 words (500 min)');
    const saved = await b.post('/articles/edit', { action: 'save', title: 'Lessons from the shop floor', body: `${words(20)}\n\n${words(10, 'second')}` }, '/articles/edit');
    t.equal(saved.headers.location, '/articles/edit?saved=1');
    const page = await b.get('/articles/edit?saved=1');
    t.match(page.body, 'Saved.');
    t.match(page.body, '30/1000 words (500 min)');
    t.match(page.body, 'value="Lessons from the shop floor"');
    const articleId = /name="articleId" value="(\d+)"/.exec(page.body)![1]!;
    const short = await b.post('/articles/edit', { action: 'submit', articleId, title: 'Lessons from the shop floor', body: words(499), agreed: 'on' }, '/articles/edit');
    t.equal(short.statusCode, 400);
    t.match(short.body, 'Your article needs at least 500 words.');
    t.match(short.body, 'Save a byline before you submit.');
    t.match(short.body, '499/1000 words (500 min)', 'the typed text comes back, counted');
    t.match(short.body, 'word498', 'nothing typed is lost');
  });

  await t.test('the byline: at most 140 characters, saved from the settings page', async (t) => {
    const long = await b.post('/articles/settings', { byline: 'x'.repeat(141) }, '/articles/settings');
    t.equal(long.statusCode, 400);
    t.match(long.body, 'The byline can have at most 140 characters.');
    t.match(long.body, 'x'.repeat(141), 'kept');
    const ok = await b.post('/articles/settings', { byline: 'Ada runs Analytical Engines & Co.' }, '/articles/settings');
    t.equal(ok.headers.location, '/articles/settings?saved=1');
    t.match((await b.get('/articles/edit')).body, 'Ada runs Analytical Engines &amp; Co.');
  });

  await t.test('the byline without JavaScript: a line break is folded into a space, as Enter is blocked in the editor', async (t) => {
    const folded = await b.post('/articles/settings', { byline: 'Ada runs\r\nAnalytical Engines\n\n& Co.' }, '/articles/settings');
    t.equal(folded.headers.location, '/articles/settings?saved=1');
    const settings = await b.get('/articles/settings');
    t.match(settings.body, 'Ada runs Analytical Engines &amp; Co.', 'one line');
    t.notMatch(settings.body, /Ada runs\s*\n/, 'no line break kept');
  });

  await t.test('submitting needs the agreement box; then the article is with the editors, read-only', async (t) => {
    const page = await b.get('/articles/edit');
    const articleId = /name="articleId" value="(\d+)"/.exec(page.body)![1]!;
    const noBox = await b.post('/articles/edit', { action: 'submit', articleId, title: 'Lessons from the shop floor', body: words(500) }, '/articles/edit');
    t.equal(noBox.statusCode, 403);
    t.match(noBox.body, 'Please accept the agreement first.');
    const sent = await b.post('/articles/edit', { action: 'submit', articleId, title: 'Lessons from the shop floor', body: words(500), agreed: 'on' }, '/articles/edit');
    t.equal(sent.headers.location, '/articles?alert=article-submitted');
    const scan = await db.selectFrom('copy_scans').selectAll().where('article_id', '=', Number(articleId)).executeTakeFirstOrThrow();
    t.equal(scan.status, 'COMPLETED', 'submitting runs the copy scan');
    t.equal(scan.total_words, 500);
    t.equal(scan.ai_probability, null, 'what cannot truly be computed stays empty');
    const dash = await b.get('/articles?alert=article-submitted');
    t.match(dash.body, 'Your article was submitted for review.');
    t.match(dash.body, /data-island="AlertBanner" data-props="[^"]*&quot;ttl&quot;:5000/, 'an alert like every other: it leaves after the one ttl');
    t.notMatch((await b.get('/articles')).body, 'Your article was submitted for review.', 'shown once, not on later pages');
    t.match(dash.body, 'Submitted for review');
    t.equal((await b.get('/articles/edit')).headers.location, '/articles', 'SUBMITTED_FOR_REVIEW redirects to the dashboard');
    await moveArticle(deps, editor, { articleId: Number(articleId), to: 'FIRST_ROUND_EDIT' });
    const atWork = await b.get('/articles/edit');
    t.match(atWork.body, 'The editors are working on your article.');
    t.notMatch(atWork.body, 'name="title"', 'read-only');
  });

  await t.test('feedback from the editor, a reply, a revision, approval, then the job publishes it', async (t) => {
    const articleId = Number(/name="articleId" value="(\d+)"/.exec((await b.get('/articles/edit')).body)![1]);
    await createFeedback(deps, editor, { articleId, feedback: 'Cut the introduction by half.' });
    await moveArticle(deps, editor, { articleId, to: 'NEEDS_REVISION' });
    const page = await b.get('/articles/edit');
    t.match(page.body, 'Cut the introduction by half.');
    t.match(page.body, 'name="title"', 'editable again');
    const empty = await b.post('/articles/feedback', { articleId: String(articleId), feedback: ' ' }, '/articles/edit');
    t.match(empty.body, 'Please write a message.');
    await b.post('/articles/feedback', { articleId: String(articleId), feedback: 'Done, thanks!' }, '/articles/edit');
    t.match((await b.get('/articles/edit')).body, 'Done, thanks!');
    const resent = await b.post('/articles/edit', { action: 'submit', articleId: String(articleId), title: 'Lessons, shorter', body: words(520, 'rev'), agreed: 'on' }, '/articles/edit');
    t.equal(resent.headers.location, '/articles?alert=article-submitted');
    for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId, to });
    const preview = await b.get('/articles/edit');
    t.match(preview.body, 'Approve for publishing');
    t.match(preview.body, 'rev519');
    const seen = /name="revisionId" value="(\d+)"/.exec(preview.body)![1]!;
    const noBox = await b.post('/articles/approve', { articleId: String(articleId), revisionId: seen }, '/articles/edit');
    t.equal(noBox.statusCode, 403);
    // The editors take it back for one more correction while the member has the preview open.
    await moveArticle(deps, editor, { articleId, to: 'FINAL_EDIT' });
    await editArticleText(deps, editor, { articleId, title: 'Lessons, shorter', content: `<p>${words(521, 'rev')}</p>` });
    await moveArticle(deps, editor, { articleId, to: 'READY_TO_APPROVE' });
    const stale = await b.post('/articles/approve', { articleId: String(articleId), revisionId: seen, agreed: 'on' }, '/articles/edit');
    t.equal(stale.statusCode, 409, 'the version read is no longer the one to approve');
    t.match(stale.body, 'The editors changed this article since you opened it.');
    t.match(stale.body, 'rev520', 'the new version is shown to read');
    const current = /name="revisionId" value="(\d+)"/.exec(stale.body)![1]!;
    t.not(current, seen);
    const approved = await b.post('/articles/approve', { articleId: String(articleId), revisionId: current, agreed: 'on' }, '/articles/edit');
    t.equal(approved.headers.location, '/articles?alert=article-approved');
    t.match((await b.get('/articles?alert=article-approved')).body, 'Lessons, shorter');
    await moveArticle(deps, editor, { articleId, to: 'SCHEDULED', scheduledDate: '2026-11-28T09:00:00Z' });
    t.match((await b.get('/articles')).body, 'Scheduled for Nov 28, 2026');
    clock.set('2026-11-28T09:00:01Z');
    t.same(await publishDueArticles(db, clock, app.t, app.notifications), [articleId]);
    const published = await b.get('/articles/published');
    t.match(published.body, 'Lessons, shorter');
    t.match(published.body, 'Nov 28, 2026');
  });

  await t.test('during a blackout Submit is disabled and refused with the spec notice', async (t) => {
    clock.set('2026-12-24T12:00:00Z');
    await db.insertInto('blackout_windows').values({ community_id: alpha.id, starts_on: '2026-12-23', ends_before: '2027-01-02' }).execute();
    b.cookies.set('auth', (await signIn(app, author, alpha)).token); // a month on: a fresh session
    const page = await b.get('/articles/edit');
    // The window starts on 12/23: the notice says so (the spec's own words, "from 12/24", fit a window
    // starting on 12/24); its last day is the one before the exclusive end.
    const notice = 'The community is closed from 12/23 through 1/1. You may return on 1/2 to submit your article.';
    t.equal(timesShown(page.body, notice), 1, 'the notice is said once');
    t.match(page.body, /value="submit" class="button" disabled=""/);
    const refused = await b.post('/articles/edit', { action: 'submit', title: 'Holiday piece', body: words(600), agreed: 'on' }, '/articles/edit');
    t.equal(refused.statusCode, 409);
    t.equal(timesShown(refused.body, notice), 1, 'the notice is said once, as the reason the submit was refused');
    t.match(refused.body, 'word599', 'the text is kept');
  });
});

/** The island's props as the page serialised them. */
function islandProps(html: string, island: string) {
  const raw = new RegExp(`data-island="${island}" data-props="([^"]*)"`).exec(html)![1]!;
  return JSON.parse(raw.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

t.test('the member’s side when things change under them, without JavaScript', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', article_terms: 'Terms.', article_guidelines: 'Write from your own experience.\n\nKeep it under 1000 words.' });
  const { app } = await startApp(t, db, { clock });
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ed' });
  const editor = { userId: editorUser.id, isStaff: true };
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };

  /** A member who accepted the agreement and saved a byline, in a browser without JavaScript. */
  async function writer(firstName = 'Ada') {
    const member = await createMember(db, alpha, { firstName });
    await acceptProductAgreement(deps, member.id);
    await saveByline(deps, member.id, '<p>Writes.</p>');
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, member, alpha)).token);
    return { member, b };
  }
  /** An article handed to the editors and given back for a revision: the member's to change again. */
  async function inRevision(memberId: number) {
    const draft = await autosaveRevision(deps, memberId, { title: 'First go', content: `<p>${words(510)}</p>` });
    await submitForReview(deps, memberId, { articleId: draft.id, title: 'First go', content: `<p>${words(510)}</p>`, agreed: true });
    await moveArticle(deps, editor, { articleId: draft.id, to: 'FIRST_ROUND_EDIT' });
    await moveArticle(deps, editor, { articleId: draft.id, to: 'NEEDS_REVISION' });
    return draft.id;
  }

  await t.test('an editor takes the article while the member types: Save brings the text back to copy, with the reason and no Save or Submit', async (t) => {
    const { member, b } = await writer();
    const articleId = await inRevision(member.id);
    t.match((await b.get('/articles/edit')).body, 'name="title"', 'the member opens the editor');
    await moveArticle(deps, editor, { articleId, to: 'FIRST_ROUND_EDIT' });
    for (const action of ['save', 'exit', 'submit']) {
      const res = await b.post('/articles/edit', { action, articleId: String(articleId), title: 'Second go, typed', body: `${words(30, 'typed')}\n\nA last paragraph.`, agreed: 'on' }, '/articles');
      t.equal(res.statusCode, 409, action);
      t.match(res.body, 'This article can no longer be changed here: it was submitted or taken for review. Copy your text if you want to keep it.');
      t.match(res.body, /<input[^>]*name="title"[^>]*value="Second go, typed"[^>]*readOnly=""|<input[^>]*readOnly=""[^>]*value="Second go, typed"/, 'the typed title, read-only');
      t.match(res.body, /<textarea[^>]*readOnly=""[^>]*>typed0 typed1[^<]*\n\nA last paragraph.<\/textarea>/, 'the typed text, read-only');
      t.notMatch(shown(res.body), 'Save draft', 'no Save that cannot work');
      t.notMatch(shown(res.body), 'value="submit"', 'no Submit that cannot work');
    }
    const stored = await db.selectFrom('articles').innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id').select(['article_revisions.title']).where('articles.id', '=', articleId).executeTakeFirstOrThrow();
    t.equal(stored.title, 'First go', 'the text the editors took is unchanged');
  });

  await t.test('the community switches to an application form while a member types a first article: the text comes back to copy', async (t) => {
    const { b } = await writer('Grace');
    t.match((await b.get('/articles/edit')).body, 'name="title"', 'the editor opens: nothing in flight, no form yet');
    await db.updateTable('communities').set({ article_application_url: 'https://apply.example.com/form' }).where('id', '=', alpha.id).execute();
    app.communities.invalidate();
    try {
      const res = await b.post('/articles/edit', { action: 'save', title: 'My first', body: words(40, 'mine') }, '/articles');
      t.equal(res.statusCode, 403);
      t.match(res.body, 'New articles start with the program’s application form, linked from your articles page. Copy your text if you want to keep it.');
      t.match(res.body, /<textarea[^>]*readOnly=""[^>]*>mine0 mine1/, 'the typed text, read-only');
      t.notMatch(shown(res.body), 'Save draft', 'no Save that cannot work');
      t.equal((await b.get('/articles/edit')).headers.location, 'https://apply.example.com/form', 'opening the editor again goes to the form');
    } finally {
      await db.updateTable('communities').set({ article_application_url: null }).where('id', '=', alpha.id).execute();
      app.communities.invalidate();
    }
  });

  await t.test('a form with a made-up article id is not found, not a server error', async (t) => {
    const { b } = await writer('Mallory');
    for (const articleId of ['abc', '-1', '0', '99999999999', '1e3']) {
      t.equal((await b.post('/articles/approve', { articleId, agreed: 'on' }, '/articles/edit')).statusCode, 404, `approve ${articleId}`);
      t.equal((await b.post('/articles/feedback', { articleId, feedback: 'Hello' }, '/articles/edit')).statusCode, 404, `feedback ${articleId}`);
    }
  });

  await t.test('the dashboard links to the editor only where it opens, named for what the member can do there', async (t) => {
    const { member, b } = await writer('Bea');
    const draft = await autosaveRevision(deps, member.id, { title: 'Statuses', content: '<p>Some words.</p>' });
    const expected = {
      DRAFT: 'Continue writing',
      NEEDS_REVISION: 'Continue writing',
      FIRST_ROUND_EDIT: 'Open your article',
      FINAL_EDIT: 'Open your article',
      READY_TO_APPROVE: 'Review and approve',
      SUBMITTED_FOR_REVIEW: null,
      UNASSIGNED: null,
      EDITING: null,
      ON_HOLD: null,
    } as const;
    for (const [status, label] of Object.entries(expected)) {
      await db.updateTable('articles').set({ status: status as keyof typeof expected }).where('id', '=', draft.id).execute();
      const dash = await b.get('/articles');
      t.match(dash.body, 'Statuses', `${status}: the article is on the dashboard`);
      if (label) {
        t.match(dash.body, `<a class="button" href="/articles/edit">${label}</a>`, `${status}: ${label}`);
        const editorPage = await b.get('/articles/edit');
        t.equal(editorPage.statusCode, 200, `${status}: the link opens the editor page`);
      } else {
        t.notMatch(dash.body, 'href="/articles/edit"', `${status}: no link that would only come back here`);
        t.equal((await b.get('/articles/edit')).headers.location, '/articles');
      }
    }
  });

  await t.test('guidelines=true opens the guidelines in the editor too, in paragraphs', async (t) => {
    const { b } = await writer('Cy');
    const asked = await b.get('/articles/edit?guidelines=true');
    t.match(asked.body, /<details class="panel" id="editor-guidelines" open="">/);
    t.match(asked.body, '<p>Write from your own experience.</p><p>Keep it under 1000 words.</p>');
    t.equal(islandProps(asked.body, 'SidebarToggle').openAtLoad, true, 'on a phone the sidebar opens at load');
    const plain = await b.get('/articles/edit');
    t.match(plain.body, /<details class="panel" id="editor-guidelines">/, 'closed otherwise');
    t.equal(islandProps(plain.body, 'SidebarToggle').openAtLoad, false);
  });

  await t.test('a refused submit keeps the agreement box ticked; a refused message comes back in its field', async (t) => {
    const { member, b } = await writer('Di');
    const short = await b.post('/articles/edit', { action: 'submit', title: 'Too short', body: words(100), agreed: 'on' }, '/articles/edit');
    t.equal(short.statusCode, 400);
    t.match(short.body, /<input type="checkbox" id="agreed" name="agreed"[^>]*checked=""/, 'still ticked');
    const unticked = await b.post('/articles/edit', { action: 'submit', title: 'Too short', body: words(100) }, '/articles/edit');
    t.notMatch(unticked.body, /id="agreed"[^>]*checked=""/, 'not ticked when it was not');
    const article = await db.selectFrom('articles').select('id').where('author_id', '=', member.id).executeTakeFirstOrThrow();
    const long = `Thanks for the notes. ${'Very long. '.repeat(460)}`;
    const refused = await b.post('/articles/feedback', { articleId: String(article.id), feedback: long }, '/articles/edit');
    t.equal(refused.statusCode, 400);
    t.match(refused.body, 'The message can have at most 5000 characters.');
    t.match(refused.body, /<textarea id="feedback-text" name="feedback"[^>]*>Thanks for the notes. Very long./, 'the message is in its field');
  });

  await t.test('older feedback without JavaScript: each "Show older messages" adds 20 above the ones shown', async (t) => {
    const { member, b } = await writer('Eve');
    const articleId = await inRevision(member.id);
    const note = (i: number) => `Note ${String(i).padStart(2, '0')}.`;
    for (let i = 1; i <= 45; i++) await createFeedback(deps, i % 2 ? editor : { userId: member.id, isStaff: false }, { articleId, feedback: note(i) });
    const first = await b.get('/articles/edit');
    t.match(first.body, note(26));
    t.match(first.body, note(45));
    t.notMatch(first.body, note(25), 'the newest 20 at first');
    t.match(first.body, '<a href="/articles/edit?feedback=40#feedback">Show older messages</a>');
    const more = await b.get('/articles/edit?feedback=40');
    t.match(more.body, note(6));
    t.match(more.body, note(45), 'the newer ones stay');
    t.notMatch(more.body, note(5));
    t.match(more.body, '<a href="/articles/edit?feedback=60#feedback">Show older messages</a>');
    const all = await b.get('/articles/edit?feedback=60');
    t.match(all.body, note(1));
    t.match(all.body, note(45));
    t.notMatch(shown(all.body), 'Show older messages', 'nothing older is left');
    const thread = islandProps(all.body, 'FeedbackThread');
    t.equal(thread.remarks.length, 45);
    t.equal(thread.olderCursor, null);
    t.equal(islandProps(first.body, 'FeedbackThread').olderCursor, islandProps(first.body, 'FeedbackThread').remarks[0].id.toString(), 'with JavaScript, older ones are fetched before the oldest shown');
  });

  await t.test('unread feedback is said "New" to screen readers, not only shown bold; the JavaScript failure text is the spec’s', async (t) => {
    const { member, b } = await writer('Fay');
    const articleId = await inRevision(member.id);
    await createFeedback(deps, editor, { articleId, feedback: 'Please shorten the ending.' });
    const page = await b.get('/articles/edit');
    t.match(page.body, /<li[^>]*class="remark remark-unread"><p class="remark-meta"><span class="visually-hidden">New <\/span>Ed/);
    t.equal(islandProps(page.body, 'FeedbackThread').labels.failed, 'An error occurred while submitting your feedback.');
    t.equal(islandProps(page.body, 'FeedbackThread').labels.retry, 'Try again');
    t.notMatch(shown((await b.get('/articles/edit')).body), 'visually-hidden">New', 'read once the page showed it');
  });

  await t.test('the blackout notice names the community’s own window, on the clock', async (t) => {
    const { b } = await writer('Gus');
    await db.insertInto('blackout_windows').values({ community_id: alpha.id, starts_on: '2027-07-01', ends_before: '2027-07-15' }).execute();
    const notice = 'The community is closed from 7/1 through 7/14. You may return on 7/15 to submit your article.';
    clock.set('2027-06-30T23:59:59Z');
    t.notMatch((await b.get('/articles/edit')).body, 'The community is closed', 'not before the window');
    clock.set('2027-07-01T00:00:00Z');
    b.cookies.set('auth', (await signIn(app, (await writer('Hal')).member, alpha)).token);
    const page = await b.get('/articles/edit');
    t.equal(timesShown(page.body, notice), 1, 'said once');
    t.equal(islandProps(page.body, 'ArticleEditor').labels.blackout, 'You may submit again on 7/15.', 'the list of what Submit needs does not repeat it');
    clock.set('2027-07-14T23:59:59Z');
    t.match((await b.get('/articles/edit')).body, notice, 'through its last day');
    clock.set('2027-07-15T00:00:00Z');
    t.notMatch((await b.get('/articles/edit')).body, 'The community is closed', 'open again on the end day');
  });
});
