import t from 'tap';
import { createPost, deletePost, getPost, listPosts } from '#src/features/forum/posts.ts';
import { forumCounts } from '#src/features/forum/staff.ts';
import { createReply, deleteReply, listReplies } from '#src/features/forum/replies.ts';
import { moderationQueue, removeContent } from '#src/features/forum/moderation.ts';
import { AppError } from '#src/core/errors.ts';
import { openReports, reportContent, resolveReport } from '#src/features/forum/reports.ts';
import { REPORT_DESCRIPTION_MAX, REPORTS_TO_QUEUE } from '#src/features/forum/rules.ts';
import { fieldMessage, forumWorld, rejects } from '#test/helpers/forum-core.ts';

t.test('forum reports', async (t) => {
  const w = await forumWorld(t);
  const { app, alpha, beta, off, db } = w;
  const deps = w.depsFor(alpha);
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const reporters = await Promise.all(['Bob', 'Cy', 'Dee', 'Eve'].map((firstName) => w.member(alpha, { firstName, lastName: 'Reporter' })));
  const [bob, cy, dee, eve] = reporters as [typeof ada, typeof ada, typeof ada, typeof ada];
  const mod = await w.member(alpha, { firstName: 'Mo', lastName: 'Derator', moderator: true });
  const bea = await w.member(beta, { firstName: 'Bea', lastName: 'Other' });
  const general = await w.topic(alpha, 'General');
  const newPost = (title: string) => createPost(deps, ada.viewer, { title, body: `<p>${title}: buy cheap watches at example.com</p>`, topicIds: [general] });

  await t.test('a member reports a post once; the second report says it is already reported; the post says Reported By You', async (t) => {
    const post = await newPost('Cheap watches');
    await reportContent(deps, bob.viewer, 'post', post.id, { reason: 'spam', description: '  Advertising, again.  ' });
    const e = await rejects(t, reportContent(deps, bob.viewer, 'post', post.id, { reason: 'other', description: 'once more' }), 'Forum.AlreadyReported', 'a second report');
    t.equal(e?.status, 409);
    t.equal(app.t(e!.key), 'You have already reported this.');
    const rows = await db.selectFrom('forum_reports').selectAll().where('target_id', '=', post.id).execute();
    t.equal(rows.length, 1, 'one report');
    t.equal(rows[0]!.description, 'Advertising, again.', 'trimmed, and the first one stands');
    const seen = await getPost(deps, bob.viewer, post.id);
    t.ok(seen.reportedByMe);
    t.equal(app.t('forum.reportedByYou'), 'Reported By You');
    const reply = await createReply(deps, cy.viewer, post.id, { body: '<p>Me too</p>' });
    await reportContent(deps, bob.viewer, 'reply', reply.id, { reason: 'spam', description: '' });
    await rejects(t, reportContent(deps, bob.viewer, 'reply', reply.id, { reason: 'spam', description: '' }), 'Forum.AlreadyReported', 'a reply reported twice');
    t.equal((await db.selectFrom('forum_replies').select('report_count').where('id', '=', reply.id).executeTakeFirstOrThrow()).report_count, 1, 'counted once');
    t.notOk((await getPost(deps, cy.viewer, post.id)).reportedByMe, 'not for another member');
    t.equal(seen.status, 'published', 'one report does not hide it');
  });

  await t.test('one’s own post or reply cannot be reported; the reason must be one of the list', async (t) => {
    const post = await newPost('My own');
    let e = await rejects(t, reportContent(deps, ada.viewer, 'post', post.id, { reason: 'spam', description: '' }), 'Forum.Invalid', 'own post');
    t.equal(fieldMessage(app, e, 'reason'), 'You cannot report your own post or reply.');
    const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>mine</p>' });
    await rejects(t, reportContent(deps, bob.viewer, 'reply', reply.id, { reason: 'spam', description: '' }), 'Forum.Invalid', 'own reply');
    e = await rejects(t, reportContent(deps, cy.viewer, 'post', post.id, { reason: 'boring', description: '' }), 'Forum.Invalid', 'unknown reason');
    t.equal(fieldMessage(app, e, 'reason'), 'Choose a reason.');
    await rejects(t, reportContent(deps, cy.viewer, 'post', post.id, { reason: undefined, description: 'x' }), 'Forum.Invalid', 'no reason');
  });

  await t.test(`the description may be ${REPORT_DESCRIPTION_MAX} characters; one more is refused; hostile text is a 400`, async (t) => {
    const post = await newPost('Long descriptions');
    await reportContent(deps, bob.viewer, 'post', post.id, { reason: 'other', description: 'd'.repeat(REPORT_DESCRIPTION_MAX) });
    const e = await rejects(t, reportContent(deps, cy.viewer, 'post', post.id, { reason: 'other', description: 'd'.repeat(REPORT_DESCRIPTION_MAX + 1) }), 'Forum.Invalid', 'one too many');
    t.equal(fieldMessage(app, e, 'description'), `The description can be at most ${REPORT_DESCRIPTION_MAX} characters.`);
    t.equal(e!.status, 400);
    const nul = await rejects(t, reportContent(deps, cy.viewer, 'post', post.id, { reason: 'other', description: 'bad\u0000' }), 150, 'a NUL byte');
    t.equal(nul!.status, 400);
    await rejects(t, reportContent(deps, cy.viewer, 'post', post.id, { reason: 'other', description: ['x'] }), 'Forum.Invalid', 'not text');
    await reportContent(deps, cy.viewer, 'post', post.id, { reason: 'other', description: 'line one\nline two' });
    t.equal((await db.selectFrom('forum_reports').select('id').where('target_id', '=', post.id).execute()).length, 2, 'the edge and a multi-line one are kept');
  });

  await t.test(`${REPORTS_TO_QUEUE} different reporters send a published post back to the queue`, async (t) => {
    const post = await newPost('Reported thrice');
    await Promise.all([bob, cy].map((m) => reportContent(deps, m.viewer, 'post', post.id, { reason: 'spam', description: '' })));
    await rejects(t, reportContent(deps, bob.viewer, 'post', post.id, { reason: 'spam', description: 'again' }), 'Forum.AlreadyReported', 'one reporter twice');
    t.equal((await getPost(deps, cy.viewer, post.id)).status, 'published', 'two reporters (one twice): still shown');
    await reportContent(deps, dee.viewer, 'post', post.id, { reason: 'harassment', description: '' });
    await rejects(t, getPost(deps, cy.viewer, post.id), 'Forum.PostNotFound', 'the third reporter hides it from members');
    t.notOk((await listPosts(deps, cy.viewer, {})).posts.some((p) => p.id === post.id), 'and from the list');
    const queued = (await moderationQueue(deps, mod.viewer)).find((q) => q.targetKind === 'post' && q.id === post.id);
    t.equal(queued?.why, 'reported');
    t.equal(queued?.reportCount, 3);
    await rejects(t, reportContent(deps, eve.viewer, 'post', post.id, { reason: 'spam', description: '' }), 'Forum.PostNotFound', 'a hidden post cannot be reported');
    const log = await db.selectFrom('forum_actions').selectAll().where('target_id', '=', post.id).execute();
    t.same(log.map((a) => [a.action, a.actor_id]), [['queue_reported', null]], 'the log says the forum did it');
    const one = await db.selectFrom('forum_reports').select('id').where('target_kind', '=', 'post').where('target_id', '=', post.id).executeTakeFirstOrThrow();
    await resolveReport(deps, mod.viewer, one.id, 'dismissed');
    const still = (await moderationQueue(deps, mod.viewer)).find((q) => q.targetKind === 'post' && q.id === post.id);
    t.same([still?.why, still?.reportCount], ['reported', 2], 'one report dismissed: it still waits, and the queue still says why');
  });

  await t.test('a reported reply goes back to the queue and leaves the post’s reply count', async (t) => {
    const post = await newPost('Reply reported');
    const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>rude words</p>' });
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 1);
    await Promise.all([ada, cy, dee].map((m) => reportContent(deps, m.viewer, 'reply', reply.id, { reason: 'harassment', description: '' })));
    t.equal((await getPost(deps, ada.viewer, post.id)).replyCount, 0, 'it no longer counts');
    t.notOk((await listReplies(deps, cy.viewer, post.id)).replies.some((r) => r.id === reply.id), 'members no longer see it');
    t.ok((await moderationQueue(deps, mod.viewer)).some((q) => q.targetKind === 'reply' && q.id === reply.id && q.why === 'reported'));
  });

  await t.test('moderators read open reports in keyset pages and resolve them; members may not', async (t) => {
    await w.forumNotes(ada.id); // the notices still queued from earlier replies come first
    const page1 = await openReports(deps, mod.viewer, { first: 3 });
    t.equal(page1.reports.length, 3);
    t.ok(page1.next);
    const rest = await openReports(deps, mod.viewer, { after: page1.next, first: 100 });
    const all = [...page1.reports, ...rest.reports];
    t.equal(new Set(all.map((r) => r.id)).size, all.length, 'none twice');
    t.equal(rest.next, null);
    const first = all[0]!;
    t.equal(first.postTitle, 'Cheap watches');
    t.equal(first.reporter.name, 'Bob Reporter');
    t.equal(first.author.name, 'Ada Lovelace');
    t.match(first.excerpt, 'buy cheap watches');
    t.equal(first.reason, 'spam');
    await rejects(t, openReports(deps, bob.viewer), 'Forum.NotModerator', 'a member');
    await rejects(t, openReports(deps, mod.viewer, { after: 'x; drop table' }), 'Forum.Invalid', 'a malformed cursor');
    await resolveReport(deps, mod.viewer, first.id, 'dismissed');
    await rejects(t, resolveReport(deps, mod.viewer, first.id, 'dismissed'), 'Forum.AlreadyModerated', 'not twice');
    await rejects(t, resolveReport(deps, bob.viewer, all[1]!.id, 'dismissed'), 'Forum.NotModerator', 'not by a member');
    await rejects(t, resolveReport(deps, mod.viewer, all[1]!.id, 'shrug'), 'Forum.Invalid', 'an unknown resolution');
    t.notOk((await openReports(deps, mod.viewer, { first: 100 })).reports.some((r) => r.id === first.id), 'the dismissed one left the list');

    const own = all.find((r) => r.postTitle === 'Long descriptions')!;
    await resolveReport(deps, mod.viewer, own.id, 'removed');
    const row = await db.selectFrom('forum_posts').select(['status', 'moderation_note']).where('id', '=', own.postId).executeTakeFirstOrThrow();
    t.equal(row.status, 'removed', 'removing through a report removes the post');
    t.equal(row.moderation_note, 'Removed after a report: Something else');
    const stillOpen = (await openReports(deps, mod.viewer, { first: 100 })).reports.filter((r) => r.postId === own.postId);
    t.same(stillOpen, [], 'every report on it is resolved');
    t.match((await w.forumNotes(ada.id)).at(-1)?.message, 'Your post “Long descriptions” was removed by a moderator: Removed after a report: Something else');
  });

  await t.test('a report on something its author deleted is settled by the deletion; resolving it again is refused', async (t) => {
    const post = await newPost('Gone already');
    const reply = await createReply(deps, bob.viewer, post.id, { body: '<p>soon deleted</p>' });
    await reportContent(deps, cy.viewer, 'reply', reply.id, { reason: 'spam', description: '' });
    const report = (await openReports(deps, mod.viewer, { first: 100 })).reports.find((r) => r.targetKind === 'reply' && r.targetId === reply.id)!;
    await deleteReply(deps, bob.viewer, reply.id);
    await rejects(t, resolveReport(deps, mod.viewer, report.id, 'removed'), 'Forum.AlreadyModerated', 'already settled');
    const row = await db.selectFrom('forum_reports').select(['resolution', 'resolved_by']).where('id', '=', report.id).executeTakeFirstOrThrow();
    t.same(row, { resolution: 'deleted', resolved_by: bob.id });
  });

  await t.test('what its author deletes leaves the open reports, with its text', async (t) => {
    const openCount = async () => (await forumCounts({ db, community: alpha })).openReports;
    const baseline = await openCount();
    const post = await newPost('Deleted by its author');
    const reply = await createReply(deps, ada.viewer, post.id, { body: '<p>a reply, soon gone</p>' });
    const other = await createReply(deps, ada.viewer, post.id, { body: '<p>another reply</p>' });
    await reportContent(deps, bob.viewer, 'post', post.id, { reason: 'spam', description: '' });
    await reportContent(deps, bob.viewer, 'reply', reply.id, { reason: 'spam', description: '' });
    await reportContent(deps, cy.viewer, 'reply', other.id, { reason: 'spam', description: '' });
    t.equal(await openCount(), baseline + 3, 'three open reports');
    await deleteReply(deps, ada.viewer, reply.id);
    const onReply = await db.selectFrom('forum_reports').select(['resolution', 'resolved_at']).where('target_kind', '=', 'reply').where('target_id', '=', reply.id).execute();
    t.same(onReply.map((r) => [r.resolution, r.resolved_at != null]), [['deleted', true]], 'the deleted reply’s report is settled');
    t.equal(await openCount(), baseline + 2);
    await deletePost(deps, ada.viewer, post.id);
    const open = await db.selectFrom('forum_reports').select('id').where('post_id', '=', post.id).where('resolved_at', 'is', null).execute();
    t.same(open, [], 'the post’s reports and its replies’ reports are settled');
    t.equal(await openCount(), baseline, 'the overview no longer counts them');
    // An open report left on deleted content (written before this rule) is not listed either.
    await db.updateTable('forum_reports').set({ resolved_at: null, resolution: null }).where('post_id', '=', post.id).execute();
    const listed = await openReports(deps, mod.viewer, { first: 100 });
    t.notOk(listed.reports.some((r) => r.postId === post.id), 'not in the moderators’ list');
    t.notOk(JSON.stringify(listed).includes('Deleted by its author'), 'its text is not shown');
    t.equal(await openCount(), baseline, 'nor counted');
    await db.updateTable('forum_reports').set({ resolved_at: new Date(), resolution: 'deleted' }).where('post_id', '=', post.id).execute();
  });

  await t.test('dismissing a report while the same post or reply is removed ends cleanly: no deadlock, no raw error', async (t) => {
    const pairs: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < 20; i++) {
      const post = await newPost(`Race ${i}`);
      const kind = i % 2 ? ('reply' as const) : ('post' as const);
      const id = kind === 'post' ? post.id : (await createReply(deps, ada.viewer, post.id, { body: `<p>race reply ${i}</p>` })).id;
      await reportContent(deps, bob.viewer, kind, id, { reason: 'spam', description: '' });
      await reportContent(deps, cy.viewer, kind, id, { reason: 'spam', description: '' });
      const report = await db.selectFrom('forum_reports').select('id').where('target_kind', '=', kind).where('target_id', '=', id).where('reporter_id', '=', bob.id).executeTakeFirstOrThrow();
      pairs.push(() => resolveReport(deps, mod.viewer, report.id, 'dismissed'), () => removeContent(deps, mod.viewer, kind, id, 'Spam'));
    }
    const results = await Promise.allSettled(pairs.map((run) => run()));
    const raw = results.filter((r) => r.status === 'rejected' && !(r.reason instanceof AppError && r.reason.status < 500));
    t.same(raw.map((r) => String((r as PromiseRejectedResult).reason)), [], 'every failure is a 4xx AppError (already moderated, or busy: try again)');
    t.ok(results.filter((r) => r.status === 'fulfilled').length >= 20, 'most actions went through');
  });

  await t.test('tenancy and the forum-off community', async (t) => {
    const post = await newPost('Tenancy');
    await rejects(t, reportContent(w.depsFor(beta), bea.viewer, 'post', post.id, { reason: 'spam', description: '' }), 'Forum.PostNotFound', 'from another community');
    await rejects(t, reportContent(w.depsFor(off), bob.viewer, 'post', post.id, { reason: 'spam', description: '' }), 'NotFound', 'forum off');
    const betaMod = await w.member(beta, { firstName: 'Ben', lastName: 'Betamod', moderator: true });
    t.same((await openReports(w.depsFor(beta), betaMod.viewer)).reports, [], 'another community’s moderator sees none of these reports');
    const anyReport = await db.selectFrom('forum_reports').select('id').where('community_id', '=', alpha.id).where('resolved_at', 'is', null).executeTakeFirstOrThrow();
    await rejects(t, resolveReport(w.depsFor(beta), betaMod.viewer, anyReport.id, 'dismissed'), 'NotFound', 'nor resolves them');
  });
});
