import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { approveForPublishing, autosaveRevision, createArticle, submitForReview } from '#src/features/articles/writing.ts';
import { createFeedback, listFeedback, markFeedbackRead } from '#src/features/articles/feedback.ts';
import { editArticleText, editorMoves, listStatusEvents, moveArticle } from '#src/features/articles/review.ts';
import { loadArticle, type ArticleDeps, type Person } from '#src/features/articles/queries.ts';
import { publishDueArticles } from '#src/features/articles/publishing.ts';
import { ARTICLE_STATUSES, canMove, nextStatuses, type Actor, type ArticleStatus } from '#src/features/articles/rules.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { code, words } from '#test/helpers/articles.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';


/**
 * Every move the rules allow, written out once more by hand: the table in rules.ts must say exactly
 * this, so a change to who may do what is a change to this list too. ON_HOLD is left out: it returns
 * only to the status it was held from (tested below), or goes to the trash.
 */
const ALLOWED: Record<Actor, string[]> = {
  author: ['DRAFT>SUBMITTED_FOR_REVIEW', 'NEEDS_REVISION>SUBMITTED_FOR_REVIEW', 'READY_TO_APPROVE>READY_TO_PUBLISH'],
  editor: [
    'DRAFT>TRASHED',
    'DRAFT>ON_HOLD',
    'SUBMITTED_FOR_REVIEW>FIRST_ROUND_EDIT',
    'SUBMITTED_FOR_REVIEW>NEEDS_REVISION',
    'SUBMITTED_FOR_REVIEW>UNASSIGNED',
    'SUBMITTED_FOR_REVIEW>ON_HOLD',
    'SUBMITTED_FOR_REVIEW>TRASHED',
    'UNASSIGNED>FIRST_ROUND_EDIT',
    'UNASSIGNED>ON_HOLD',
    'UNASSIGNED>TRASHED',
    'EDITING>FIRST_ROUND_EDIT',
    'EDITING>FINAL_EDIT',
    'EDITING>ON_HOLD',
    'EDITING>TRASHED',
    'FIRST_ROUND_EDIT>NEEDS_REVISION',
    'FIRST_ROUND_EDIT>FINAL_EDIT',
    'FIRST_ROUND_EDIT>ON_HOLD',
    'FIRST_ROUND_EDIT>TRASHED',
    'NEEDS_REVISION>FIRST_ROUND_EDIT',
    'NEEDS_REVISION>ON_HOLD',
    'NEEDS_REVISION>TRASHED',
    'FINAL_EDIT>READY_TO_APPROVE',
    'FINAL_EDIT>NEEDS_REVISION',
    'FINAL_EDIT>ON_HOLD',
    'FINAL_EDIT>TRASHED',
    'READY_TO_APPROVE>FINAL_EDIT',
    'READY_TO_APPROVE>ON_HOLD',
    'READY_TO_PUBLISH>SCHEDULED',
    'READY_TO_PUBLISH>MANUALLY_PUBLISHED',
    'READY_TO_PUBLISH>PUBLISHED',
    'READY_TO_PUBLISH>FINAL_EDIT',
    'READY_TO_PUBLISH>ON_HOLD',
    'SCHEDULED>READY_TO_PUBLISH',
    'SCHEDULED>MANUALLY_PUBLISHED',
    'SCHEDULED>PUBLISHED',
    'ON_HOLD>TRASHED',
    'TRASHED>DRAFT',
  ],
  system: ['SCHEDULED>PUBLISHED'],
};

t.test('every (actor, from, to) is allowed or refused exactly as the table says', async (t) => {
  for (const actor of ['author', 'editor', 'system'] as const) {
    const allowed: string[] = [];
    for (const from of ARTICLE_STATUSES) for (const to of ARTICLE_STATUSES) if (canMove(actor, from, to)) allowed.push(`${from}>${to}`);
    t.same(allowed.sort(), [...ALLOWED[actor]].sort(), `${actor}: ${ALLOWED[actor].length} moves, every other of the ${14 * 14} refused`);
  }
  t.same(nextStatuses('editor', 'ON_HOLD', 'FINAL_EDIT'), ['FINAL_EDIT', 'TRASHED'], 'on hold: back where it was, or the trash');
  t.notOk(canMove('editor', 'ON_HOLD', 'READY_TO_PUBLISH', 'DRAFT'), 'a draft put on hold never jumps to publication');
  t.notOk(canMove('editor', 'ON_HOLD', 'SUBMITTED_FOR_REVIEW', 'DRAFT'), 'nor to review without the member submitting');
  t.notOk(canMove('author', 'ON_HOLD', 'DRAFT', 'DRAFT'), 'only the editors release a hold');
});

t.test('the review workflow keeps the member’s submission and approval meaningful', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock(); // 2026-11-21: no blackout
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta' });
  const { app } = await startApp(t, db, { clock });
  const deps: ArticleDeps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const betaDeps: ArticleDeps = { db, clock, community: beta, t: app.t, notifier: app.notifications };
  const edith = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edith', lastName: 'Editor' });
  const otto = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Otto', lastName: 'Other' });
  const editor: Person = { userId: edith.id, isStaff: true };
  const otherEditor: Person = { userId: otto.id, isStaff: true };
  const betaAdmin = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'] });
  const betaEditor: Person = { userId: betaAdmin.id, isStaff: true };

  /** A member with a submitted article (optionally taken to `to` by the editors). */
  async function submitted(path: ArticleStatus[] = []) {
    const who = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Author' });
    await acceptProductAgreement(deps, who.id);
    await saveByline(deps, who.id, '<p>Writer</p>');
    const draft = await autosaveRevision(deps, who.id, { title: 'Title', content: words(520) });
    await submitForReview(deps, who.id, { articleId: draft.id, title: 'Title', content: words(520), agreed: true });
    for (const to of path) await moveArticle(deps, editor, { articleId: draft.id, to });
    return { who, me: { userId: who.id, isStaff: false } as Person, id: draft.id };
  }

  await t.test('a hold returns only to where it came from: a draft on hold is never published or sent to review', async (t) => {
    const who = await createMember(db, alpha);
    await acceptProductAgreement(deps, who.id);
    const draft = await autosaveRevision(deps, who.id, { title: 'Half written', content: words(20) });
    await moveArticle(deps, editor, { articleId: draft.id, to: 'ON_HOLD' });
    t.same(await editorMoves(deps, editor, await loadArticle(deps, draft.id)), ['DRAFT', 'TRASHED']);
    t.equal(await code(moveArticle(deps, editor, { articleId: draft.id, to: 'READY_TO_PUBLISH' })), 'Articles.TransitionRefused');
    t.equal(await code(moveArticle(deps, editor, { articleId: draft.id, to: 'SUBMITTED_FOR_REVIEW' })), 'Articles.TransitionRefused');
    t.equal((await moveArticle(deps, editor, { articleId: draft.id, to: 'DRAFT' })).status, 'DRAFT', 'released: the member writes on');

    const approved = await submitted(['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE']);
    await approveForPublishing(deps, approved.who.id, { articleId: approved.id, agreed: true });
    await moveArticle(deps, editor, { articleId: approved.id, to: 'ON_HOLD' });
    t.same(await editorMoves(deps, editor, await loadArticle(deps, approved.id)), ['READY_TO_PUBLISH', 'TRASHED'], 'an approved article returns to READY_TO_PUBLISH');
    t.equal((await moveArticle(deps, editor, { articleId: approved.id, to: 'READY_TO_PUBLISH' })).status, 'READY_TO_PUBLISH');
  });

  await t.test('the editors correct the text only before the member is asked to approve it', async (t) => {
    const a = await submitted(['FIRST_ROUND_EDIT']);
    t.equal((await editArticleText(deps, editor, { articleId: a.id, title: 'Title', content: words(510, 'edited') })).word_count, 510, 'in FIRST_ROUND_EDIT');
    await moveArticle(deps, editor, { articleId: a.id, to: 'FINAL_EDIT' });
    t.equal(await code(editArticleText(deps, editor, { articleId: a.id, title: 'Title', content: words(505) })), 'ok', 'in FINAL_EDIT (proofreading)');
    await moveArticle(deps, editor, { articleId: a.id, to: 'READY_TO_APPROVE' });
    t.equal(await code(editArticleText(deps, editor, { articleId: a.id, title: 'Sneaky', content: words(505) })), 'Articles.NotEditable', 'not while the member reads it for approval');
    await approveForPublishing(deps, a.who.id, { articleId: a.id, agreed: true });
    t.equal(await code(editArticleText(deps, editor, { articleId: a.id, title: 'Sneaky', content: words(505) })), 'Articles.NotEditable', 'not after approval');
    await moveArticle(deps, editor, { articleId: a.id, to: 'SCHEDULED', scheduledDate: new Date(clock.now().getTime() + 86_400_000) });
    t.equal(await code(editArticleText(deps, editor, { articleId: a.id, title: 'Sneaky', content: words(505) })), 'Articles.NotEditable', 'not once scheduled');

    // A correction after approval: back to proofreading, and the member approves the new text again.
    await moveArticle(deps, editor, { articleId: a.id, to: 'READY_TO_PUBLISH' });
    await moveArticle(deps, editor, { articleId: a.id, to: 'FINAL_EDIT' });
    await editArticleText(deps, editor, { articleId: a.id, title: 'Title, corrected', content: words(506) });
    await moveArticle(deps, editor, { articleId: a.id, to: 'READY_TO_APPROVE' });
    t.equal((await approveForPublishing(deps, a.who.id, { articleId: a.id, agreed: true })).title, 'Title, corrected');
  });

  await t.test('the member approves the version they read: a text changed since is refused', async (t) => {
    const a = await submitted(['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE']);
    const seen = (await loadArticle(deps, a.id)).current_revision_id!;
    // The editors take it back for a last correction while the member has the preview open.
    await moveArticle(deps, editor, { articleId: a.id, to: 'FINAL_EDIT' });
    await editArticleText(deps, editor, { articleId: a.id, title: 'Title', content: words(530) });
    await moveArticle(deps, editor, { articleId: a.id, to: 'READY_TO_APPROVE' });
    t.equal(await code(approveForPublishing(deps, a.who.id, { articleId: a.id, agreed: true, revisionId: seen })), 'Articles.ChangedSinceOpened');
    const current = (await loadArticle(deps, a.id)).current_revision_id!;
    t.not(current, seen);
    t.equal((await approveForPublishing(deps, a.who.id, { articleId: a.id, agreed: true, revisionId: current })).status, 'READY_TO_PUBLISH', 'the version on screen');
  });

  await t.test('a save that lands after the editors took the article changes nothing', async (t) => {
    const a = await submitted(['FIRST_ROUND_EDIT', 'NEEDS_REVISION']);
    const stale = await loadArticle(deps, a.id);
    await moveArticle(deps, editor, { articleId: a.id, to: 'FIRST_ROUND_EDIT' });
    t.equal(await code(autosaveRevision(deps, a.who.id, { articleId: a.id, title: 'Late', content: words(3) })), 'Articles.NotEditable');
    t.equal((await loadArticle(deps, a.id)).current_revision_id, stale.current_revision_id, 'the handed-over text is untouched');
  });

  await t.test('the submit event names the revision that was handed over', async (t) => {
    const a = await submitted(['FIRST_ROUND_EDIT', 'NEEDS_REVISION']);
    const resubmitted = await submitForReview(deps, a.who.id, { articleId: a.id, title: 'Title', content: words(540, 'revised'), agreed: true });
    const last = await db.selectFrom('article_status_events').select(['to_status', 'revision_id']).where('article_id', '=', a.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    t.same(last, { to_status: 'SUBMITTED_FOR_REVIEW', revision_id: resubmitted.current_revision_id });
    t.equal(resubmitted.word_count, 540);
  });

  await t.test('read marks belong to a side: one editor opening the thread does not mark another’s remarks read for the author', async (t) => {
    const a = await submitted(['FIRST_ROUND_EDIT']);
    await createFeedback(deps, editor, { articleId: a.id, feedback: 'From Edith.' });
    await markFeedbackRead(deps, otherEditor, a.id);
    t.same((await listFeedback(deps, a.me, { articleId: a.id })).remarks.map((r) => r.hasRead), [false], 'still new for the author');
    t.same((await listFeedback(deps, otherEditor, { articleId: a.id })).remarks.map((r) => r.hasRead), [true], 'never new for the editors’ side');
    await createFeedback(deps, a.me, { articleId: a.id, feedback: 'From Ada.' });
    t.same((await listFeedback(deps, otherEditor, { articleId: a.id })).remarks.map((r) => r.hasRead), [true, false], 'the author’s reply is new for the editors');
    await markFeedbackRead(deps, a.me, a.id);
    t.same((await listFeedback(deps, a.me, { articleId: a.id })).remarks.map((r) => r.hasRead), [true, true]);
    await markFeedbackRead(deps, otherEditor, a.id);
    t.same((await listFeedback(deps, editor, { articleId: a.id })).remarks.map((r) => r.hasRead), [true, true]);
  });

  await t.test('each step that concerns the author leaves a notification with its address, message and time', async (t) => {
    const a = await submitted();
    const id = a.id;
    await moveArticle(deps, editor, { articleId: id, to: 'FIRST_ROUND_EDIT' });
    await createFeedback(deps, editor, { articleId: id, feedback: 'A note.' });
    await moveArticle(deps, editor, { articleId: id, to: 'NEEDS_REVISION' });
    await submitForReview(deps, a.who.id, { articleId: id, title: 'Title', content: words(530), agreed: true });
    for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId: id, to });
    await approveForPublishing(deps, a.who.id, { articleId: id, agreed: true });
    await moveArticle(deps, editor, { articleId: id, to: 'SCHEDULED', scheduledDate: new Date(clock.now().getTime() + 60_000) });
    clock.advance(120_000);
    t.same(await publishDueArticles(db, clock, app.t, app.notifications), [id]);
    const notes = await db.selectFrom('notifications').select(['url', 'message', 'read_at', 'created_at', 'community_id']).where('user_id', '=', a.who.id).orderBy('id').execute();
    t.same(
      notes.map((n) => [n.url, n.message]),
      [
        ['/articles', 'Your article "Title" was submitted for review.'],
        ['/articles', 'The editors are working on "Title".'],
        ['/articles/edit', 'New feedback on "Title".'],
        ['/articles/edit', '"Title" needs a revision: see the editor\'s feedback.'],
        ['/articles', 'Your article "Title" was submitted for review.'],
        ['/articles', 'The editors are working on "Title".'],
        ['/articles', '"Title" is in proofreading.'],
        ['/articles/edit', '"Title" is ready for your approval.'],
        ['/articles', 'Thank you for approving "Title". It goes live in 1 to 2 weeks.'],
        ['/articles', '"Title" is scheduled for Nov 21, 2026.'],
        ['/articles', '"Title" is published.'],
      ],
    );
    t.ok(notes.every((n) => n.read_at === null && n.created_at instanceof Date && n.community_id === alpha.id), 'unread, timed, in the community');
    const history = await listStatusEvents(deps, editor, id);
    t.same(history.at(-1), { ...history.at(-1)!, to_status: 'PUBLISHED', actor_id: null }, 'the scheduler published it');
    t.equal(history[0]!.actor_first, 'Ada', 'who moved it is named');
  });

  await t.test('another community’s staff can neither move, edit, assign nor join the feedback of an article', async (t) => {
    const a = await submitted();
    t.equal(await code(moveArticle(betaDeps, betaEditor, { articleId: a.id, to: 'FIRST_ROUND_EDIT' })), 'NotFound');
    t.equal(await code(editArticleText(betaDeps, betaEditor, { articleId: a.id, title: 'x', content: words(500) })), 'NotFound');
    t.equal(await code(createFeedback(betaDeps, betaEditor, { articleId: a.id, feedback: 'Hello' })), 'NotFound');
    t.equal(await code(listFeedback(betaDeps, betaEditor, { articleId: a.id })), 'NotFound');
    t.equal(await code(approveForPublishing(betaDeps, a.who.id, { articleId: a.id, agreed: true })), 'NotFound');
    t.equal((await loadArticle(deps, a.id)).status, 'SUBMITTED_FOR_REVIEW', 'nothing changed');
    t.equal(await code(moveArticle(deps, a.me, { articleId: a.id, to: 'FIRST_ROUND_EDIT' })), 'Forbidden', 'nor the author, in their own community');
  });

  await t.test('a community with an external application form starts no article here', async (t) => {
    const gamma = await createCommunity(db, { code: 'gamma', article_application_url: 'https://apply.example.com/form' });
    const gammaDeps: ArticleDeps = { db, clock, community: gamma, t: app.t, notifier: app.notifications };
    const who = await createMember(db, gamma);
    await acceptProductAgreement(gammaDeps, who.id);
    t.equal(await code(createArticle(gammaDeps, who.id)), 'Articles.ApplicationRequired');
    t.equal(await code(autosaveRevision(gammaDeps, who.id, { title: 'Sneaking in', content: words(5) })), 'Articles.ApplicationRequired', 'nor through the first autosave');
  });
});
