import t from 'tap';
import type { Test } from 'tap';
import type { AppError } from '#src/core/errors.ts';
import { acceptProductAgreement, productAgreementStatus, saveByline } from '#src/features/articles/byline-terms.ts';
import { addBlackout } from '#src/features/articles/blackouts.ts';
import { approveForPublishing, autosaveRevision, createArticle, submitForReview } from '#src/features/articles/writing.ts';
import { articleView, findArticleInFlight, getArticle, type ArticleDeps, type Person } from '#src/features/articles/queries.ts';
import { assignEditor, editArticleText, listRevisions, listStatusEvents, moveArticle } from '#src/features/articles/review.ts';
import { createFeedback, listFeedback, markFeedbackRead } from '#src/features/articles/feedback.ts';
import { listPublished, publishDueArticles } from '#src/features/articles/publishing.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { code, words } from '#test/helpers/articles.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';


t.test('articles: the member writes, the editors review, the member approves, it is published', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock(); // 2026-11-21
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta' });
  const { app } = await startApp(t, db, { clock });
  const deps: ArticleDeps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const betaDeps: ArticleDeps = { db, clock, community: beta, t: app.t, notifier: app.notifications };

  const author = await createMember(db, alpha);
  const other = await createMember(db, alpha);
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  const me: Person = { userId: author.id, isStaff: false };
  const stranger: Person = { userId: other.id, isStaff: false };
  const editor: Person = { userId: editorUser.id, isStaff: true };

  async function readyAuthor(t: Test) {
    const who = await createMember(db, alpha);
    await acceptProductAgreement(deps, who.id);
    await saveByline(deps, who.id, '<p>Founder of <a href="https://example.com">Acme</a></p>');
    t.ok(who);
    return who;
  }

  await t.test('the product agreement gates the articles area', async (t) => {
    t.equal(await productAgreementStatus(deps, author.id), null);
    t.equal(await code(createArticle(deps, author.id)), 'Articles.AgreementRequired');
    const first = await acceptProductAgreement(deps, author.id);
    t.same(first.createdAt, clock.now());
    clock.advance(1000);
    t.same((await acceptProductAgreement(deps, author.id)).createdAt, first.createdAt, 'accepting again keeps the first time');
  });

  await t.test('the first autosave creates the article; later ones update the same revision', async (t) => {
    t.equal(await findArticleInFlight(deps, author.id), undefined);
    const created = await autosaveRevision(deps, author.id, { title: 'My story', content: '<p>Hello <script>alert(1)</script><b>world</b></p>' });
    t.equal(created.status, 'DRAFT');
    t.equal(created.title, 'My story');
    t.equal(created.content, '<p>Hello <strong>world</strong></p>', 'pasted content is sanitised to the allowed tags');
    const again = await autosaveRevision(deps, author.id, { articleId: created.id, title: 'My story, v2', content: words(10) });
    t.equal(again.current_revision_id, created.current_revision_id, 'the same revision');
    t.equal(again.word_count, 10);
    t.equal((await findArticleInFlight(deps, author.id))?.id, created.id);
    t.equal(await code(autosaveRevision(deps, author.id, { articleId: created.id, title: 'x'.repeat(255), content: '' })), 'Articles.Invalid', 'a title over 254 characters is refused');
  });

  await t.test('only the author edits; other members cannot even see a draft', async (t) => {
    const article = (await findArticleInFlight(deps, author.id))!;
    t.equal(await code(autosaveRevision(deps, other.id, { articleId: article.id, title: 'Mine now', content: '' })), 'NotFound');
    t.equal(await code(getArticle(deps, stranger, article.id)), 'NotFound');
    t.equal((await getArticle(deps, editor, article.id)).id, article.id, 'staff can');
    t.equal(await code(getArticle(betaDeps, { userId: author.id, isStaff: true }, article.id)), 'NotFound', 'not from another community, even as staff there');
  });

  await t.test('submitting needs a valid title and body, a saved byline, the agreement, and no blackout', async (t) => {
    const article = (await findArticleInFlight(deps, author.id))!;
    const attempt = (input: Partial<{ title: string; content: string; agreed: boolean }>) =>
      submitForReview(deps, author.id, { articleId: article.id, title: 'A fine title', content: words(500), agreed: true, ...input });
    const fieldsOf = async (p: Promise<unknown>) => p.then(() => ({}), (e: AppError) => e.fields ?? {});
    t.same(Object.keys(await fieldsOf(attempt({}))), ['byline'], 'no byline yet');
    t.equal(await code(saveByline(deps, author.id, `<p>${'b'.repeat(141)}</p>`)), 'Articles.Invalid');
    t.equal(await code(saveByline(deps, author.id, '<p><a href="https://a.example">A</a><a href="https://b.example">B</a></p>')), 'Articles.Invalid');
    t.equal((await saveByline(deps, author.id, '<p onclick="x()">CEO of <a href="https://acme.example" target="_blank">Acme</a><img src=x></p>')).byline, '<p>CEO of <a href="https://acme.example">Acme</a></p>', 'only paragraphs and links with href');
    t.same(Object.keys(await fieldsOf(attempt({ content: words(499) }))), ['content'], '499 words');
    t.same(Object.keys(await fieldsOf(attempt({ content: words(1001) }))), ['content'], '1001 words');
    t.same(Object.keys(await fieldsOf(attempt({ title: '' }))), ['title']);
    t.equal(await code(attempt({ agreed: false })), 'Articles.AgreementRequired');
    await addBlackout(deps, editor, { startsOn: '2026-11-21', endsBefore: '2026-11-22' });
    t.equal(await code(attempt({})), 'Articles.Blackout', 'during a blackout');
    clock.set('2026-11-22T00:00:00Z');
    const submitted = await attempt({ content: words(1000) });
    t.equal(submitted.status, 'SUBMITTED_FOR_REVIEW', 'on the day the window ends (exclusive), 1000 words');
    t.equal(await code(autosaveRevision(deps, author.id, { articleId: article.id, title: 'Late edit', content: '' })), 'Articles.NotEditable', 'no edits while the editors have it');
    t.equal(await code(submitForReview(deps, author.id, { articleId: article.id, title: 'A fine title', content: words(600), agreed: true })), 'Articles.NotEditable', 'no double submission');
  });

  await t.test('editors move it along allowed transitions only, each recorded with who and when', async (t) => {
    const article = (await findArticleInFlight(deps, author.id))!;
    t.equal(await code(moveArticle(deps, me, { articleId: article.id, to: 'FIRST_ROUND_EDIT' })), 'Forbidden', 'members are not editors');
    t.equal(await code(assignEditor(deps, editor, { articleId: article.id, editorId: other.id })), 'Articles.Invalid', 'an editor must be staff');
    t.equal((await assignEditor(deps, editor, { articleId: article.id, editorId: editorUser.id })).editor_id, editorUser.id);
    t.equal(await code(moveArticle(deps, editor, { articleId: article.id, to: 'READY_TO_APPROVE' })), 'Articles.TransitionRefused');
    await moveArticle(deps, editor, { articleId: article.id, to: 'FIRST_ROUND_EDIT' });
    const edited = await editArticleText(deps, editor, { articleId: article.id, title: 'A finer title', content: words(700) });
    t.not(edited.current_revision_id, article.current_revision_id, 'the editor’s round is a new revision');
    await createFeedback(deps, editor, { articleId: article.id, feedback: 'Please tighten the second half.' });
    const back = await moveArticle(deps, editor, { articleId: article.id, to: 'NEEDS_REVISION' });
    t.equal(back.status, 'NEEDS_REVISION');
    const events = await listStatusEvents(deps, editor, article.id);
    t.same(events.map((e) => [e.from_status, e.to_status]), [
      ['DRAFT', 'SUBMITTED_FOR_REVIEW'],
      ['SUBMITTED_FOR_REVIEW', 'FIRST_ROUND_EDIT'],
      ['FIRST_ROUND_EDIT', 'NEEDS_REVISION'],
    ]);
    t.same(events.map((e) => e.actor_id), [author.id, editorUser.id, editorUser.id]);
  });

  await t.test('feedback: a thread, newest 20 with older on demand, read marks, never empty', async (t) => {
    const article = (await findArticleInFlight(deps, author.id))!;
    t.equal(await code(createFeedback(deps, me, { articleId: article.id, feedback: '   ' })), 'Articles.Invalid');
    t.equal(await code(createFeedback(deps, stranger, { articleId: article.id, feedback: 'Hi' })), 'NotFound');
    for (let i = 0; i < 22; i++) await createFeedback(deps, i % 2 ? editor : me, { articleId: article.id, feedback: `Message ${i}` });
    const page = await listFeedback(deps, me, { articleId: article.id });
    t.equal(page.remarks.length, 20);
    t.equal(page.remarks.at(-1)!.remark, 'Message 21', 'newest last');
    t.equal(page.pageInfo.hasPreviousPage, true);
    const older = await listFeedback(deps, me, { articleId: article.id, before: Number(page.pageInfo.startCursor) });
    t.same(older.remarks.map((r) => r.remark), ['Please tighten the second half.', 'Message 0', 'Message 1']);
    t.equal(older.pageInfo.hasPreviousPage, false);
    t.ok(page.remarks.some((r) => !r.hasRead), 'the editor’s messages are unread');
    await markFeedbackRead(deps, me, article.id);
    t.ok((await listFeedback(deps, me, { articleId: article.id })).remarks.every((r) => r.hasRead));
  });

  await t.test('the member revises and resubmits; the editors finish; the member approves', async (t) => {
    const article = (await findArticleInFlight(deps, author.id))!;
    const revised = await autosaveRevision(deps, author.id, { articleId: article.id, title: 'A finer title', content: words(650, 'revised') });
    t.not(revised.current_revision_id, article.current_revision_id, 'after the editors’ round the author starts a new revision');
    await submitForReview(deps, author.id, { articleId: article.id, title: 'A finer title', content: words(650, 'revised'), agreed: true });
    await moveArticle(deps, editor, { articleId: article.id, to: 'FIRST_ROUND_EDIT' });
    await moveArticle(deps, editor, { articleId: article.id, to: 'FINAL_EDIT' });
    t.equal(await code(approveForPublishing(deps, author.id, { articleId: article.id, agreed: true })), 'Articles.TransitionRefused', 'not before the editors are done');
    await moveArticle(deps, editor, { articleId: article.id, to: 'READY_TO_APPROVE' });
    t.equal(await code(approveForPublishing(deps, other.id, { articleId: article.id, agreed: true })), 'NotFound', 'only the author approves');
    t.equal(await code(approveForPublishing(deps, author.id, { articleId: article.id })), 'Articles.AgreementRequired');
    const approved = await approveForPublishing(deps, author.id, { articleId: article.id, agreed: true });
    t.equal(approved.status, 'READY_TO_PUBLISH');
    t.equal(await findArticleInFlight(deps, author.id), undefined, 'no longer in flight');
    const revisions = await listRevisions(deps, editor, article.id);
    t.same(revisions.map((r) => r.author_id), [author.id, editorUser.id, author.id], 'every round is kept: the first submission, the editor’s, the revision');
  });

  await t.test('scheduled articles are published by the job at their time, not before', async (t) => {
    const article = (await listPublished(deps, author.id))[0] ?? (await db.selectFrom('articles').select('id').where('author_id', '=', author.id).executeTakeFirstOrThrow());
    t.equal(await code(moveArticle(deps, editor, { articleId: article.id, to: 'SCHEDULED', scheduledDate: '2026-11-01T00:00:00Z' })), 'Articles.Invalid', 'not in the past');
    await moveArticle(deps, editor, { articleId: article.id, to: 'SCHEDULED', scheduledDate: '2026-12-01T09:00:00Z' });
    t.same(await publishDueArticles(db, clock, app.t, app.notifications), [], 'not yet');
    clock.set('2026-12-01T09:00:00Z');
    t.same(await publishDueArticles(db, clock, app.t, app.notifications), [article.id]);
    const published = await getArticle(deps, stranger, article.id);
    t.equal(published.status, 'PUBLISHED');
    t.same(published.published_date, new Date('2026-12-01T09:00:00Z'));
    t.equal(articleView(published, stranger).canView, true, 'published articles are visible to members');
    t.equal(await code(moveArticle(deps, editor, { articleId: article.id, to: 'TRASHED' })), 'Articles.TransitionRefused', 'a published article cannot be removed');
    const messages = await db.selectFrom('notifications').select('message').where('user_id', '=', author.id).orderBy('id').execute();
    t.match(messages.map((m) => m.message), [/submitted for review/, /editors are working/, /New feedback/]);
    t.match(messages.at(-1)!.message, /is published/);
  });

  await t.test('manual publication needs the live address', async (t) => {
    const who = await readyAuthor(t);
    const a = await autosaveRevision(deps, who.id, { title: 'Manual', content: words(520) });
    await submitForReview(deps, who.id, { articleId: a.id, title: 'Manual', content: words(520), agreed: true });
    for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId: a.id, to });
    await approveForPublishing(deps, who.id, { articleId: a.id, agreed: true });
    t.equal(await code(moveArticle(deps, editor, { articleId: a.id, to: 'MANUALLY_PUBLISHED', articleUrl: 'javascript:alert(1)' })), 'Articles.Invalid');
    const live = await moveArticle(deps, editor, { articleId: a.id, to: 'MANUALLY_PUBLISHED', articleUrl: 'https://news.example/story' });
    t.equal(live.article_url, 'https://news.example/story');
    t.ok(live.published_date);
  });

  await t.test('two editors taking the same article at once: one wins, the other is refused', async (t) => {
    const who = await readyAuthor(t);
    const a = await autosaveRevision(deps, who.id, { title: 'Race', content: words(520) });
    await submitForReview(deps, who.id, { articleId: a.id, title: 'Race', content: words(520), agreed: true });
    const results = await Promise.all([
      code(moveArticle(deps, editor, { articleId: a.id, to: 'FIRST_ROUND_EDIT' })),
      code(moveArticle(deps, editor, { articleId: a.id, to: 'FIRST_ROUND_EDIT' })),
    ]);
    t.same([...results].sort(), ['Articles.TransitionRefused', 'ok']);
  });
});
