import t from 'tap';
import { sql } from 'kysely';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { listDevices } from '#src/features/notifications/push/tokens.ts';
import { checkContact } from '#src/features/settings/team.ts';
import { forgetFilterOptions, listDirectory, listSuggestions, parseDirectoryQuery } from '#src/features/members/directory.ts';
import { systemClock } from '#src/core/clock.ts';
import { chargeOnce } from '#src/features/payments/ledger.ts';
import { DEMO_INVITEE, DEMO_OVERDUE } from '#src/features/payments/seed.ts';
import type { EpDeps } from '#src/features/expert-panels/deps.ts';
import { getQuestion, listMemberQuestions } from '#src/features/expert-panels/questions.ts';
import { ANSWER_STATUSES, checkAnswer } from '#src/features/expert-panels/rules.ts';
import { signIn } from '#test/helpers/factories.ts';

/**
 * The demo seed, area by area: what `npm start` puts in an empty database, checked on the seeded
 * template (test/helpers/db.ts). One file, one process: each part starts from its own copy.
 */

// From forum/seed.test.ts (the seeded demo, one file for all its areas).
t.test('the demo forum: a living Summit forum, and Harbor with its forum off', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const harbor = await db.selectFrom('communities').selectAll().where('code', '=', 'harbor').executeTakeFirstOrThrow();
  const userId = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const amara = await userId('amara.okafor@summit-demo.example.com');
  const daniel = await userId('daniel.reyes@summit-demo.example.com');

  await t.test('Summit has its forum on and Harbor has it off, with nothing in it', async (t) => {
    t.equal(summit.forum_enabled, true);
    t.equal(harbor.forum_enabled, false);
    for (const table of ['forum_topics', 'forum_posts', 'forum_replies', 'forum_likes'] as const) {
      const { n } = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('community_id', '=', harbor.id).executeTakeFirstOrThrow();
      t.equal(Number(n), 0, `Harbor has no ${table}`);
    }
  });

  await t.test('Summit has topics in order, one of them archived', async (t) => {
    const topics = await db.selectFrom('forum_topics').selectAll().where('community_id', '=', summit.id).orderBy('position').execute();
    t.ok(topics.length >= 6, `${topics.length} topics`);
    t.same(topics.map((tp) => tp.position), [...topics.keys()], 'positions 0, 1, 2, ...');
    t.equal(topics.filter((tp) => tp.archived_at).length, 1, 'one archived');
    t.ok(topics.some((tp) => tp.name === 'Operations'));
  });

  // The forum's own posts (the groups' discussions hold a few more, checked below).
  const posts = await db.selectFrom('forum_posts').selectAll().where('community_id', '=', summit.id).where('group_id', 'is', null).execute();

  await t.test('about forty posts by many members over the past four months, each with one or two topics', async (t) => {
    t.ok(posts.length >= 38 && posts.length <= 45, `${posts.length} posts`);
    t.ok(new Set(posts.map((p) => p.author_id)).size >= 30, 'by many different members');
    const ages = posts.map((p) => (Date.now() - new Date(p.created_at).getTime()) / 86_400_000);
    t.ok(Math.max(...ages) > 100 && Math.max(...ages) < 125, 'the oldest about four months ago');
    t.ok(Math.min(...ages) < 3, 'the newest days ago');
    for (const p of posts) t.ok(new Date(p.last_activity_at) >= new Date(p.created_at) && new Date(p.last_activity_at).getTime() <= Date.now(), `${p.title}: last activity after it was written, not in the future`);
    const topicCounts = await db.selectFrom('forum_post_topics').select(['post_id', (eb) => eb.fn.countAll<number>().as('n')]).where('community_id', '=', summit.id).groupBy('post_id').execute();
    t.equal(topicCounts.length, posts.length, 'every post has topics');
    t.ok(topicCounts.every((r) => Number(r.n) >= 1 && Number(r.n) <= 2), 'one or two each');
    t.ok(posts.every((p) => /<p>/.test(p.body_html) && p.body_text.length > 40 && !/</.test(p.body_text)), 'bodies are HTML paragraphs with their plain text');
    t.ok(posts.some((p) => /<ul><li>/.test(p.body_html)) && posts.some((p) => /<a href="https:/.test(p.body_html)) && posts.some((p) => /<strong>/.test(p.body_html)));
  });

  await t.test('two posts wait for approval: one by a member who joined recently, and Amara\u2019s', async (t) => {
    const pending = posts.filter((p) => p.status === 'pending');
    t.equal(pending.length, 2);
    const newcomer = pending.find((p) => p.author_id !== amara)!;
    t.ok(newcomer, 'one by another member');
    const joined = await db.selectFrom('memberships').select('joined_at').where('community_id', '=', summit.id).where('user_id', '=', newcomer.author_id).executeTakeFirstOrThrow();
    t.ok(Date.now() - new Date(joined.joined_at).getTime() < 14 * 86_400_000, 'joined less than two weeks ago');
    t.equal(pending.filter((p) => p.author_id === amara).length, 1, 'one by Amara (her home page lists it)');
    t.ok(pending.every((p) => p.reply_count === 0));
    t.equal(posts.filter((p) => p.status !== 'published' && p.status !== 'pending').length, 0, 'every other post is published');
  });

  await t.test('one post was reported by two different members and is still published', async (t) => {
    const reported = posts.filter((p) => p.report_count > 0);
    t.equal(reported.length, 1);
    t.equal(reported[0]!.report_count, 2);
    t.equal(reported[0]!.status, 'published');
    const reports = await db.selectFrom('forum_reports').selectAll().where('community_id', '=', summit.id).execute();
    t.equal(reports.length, 2);
    t.equal(new Set(reports.map((r) => r.reporter_id)).size, 2, 'by different members');
    t.ok(reports.every((r) => r.target_kind === 'post' && r.target_id === reported[0]!.id && r.reporter_id !== reported[0]!.author_id && r.resolved_at === null));
  });

  await t.test('one post is pinned and one locked, and the admin did it', async (t) => {
    t.equal(posts.filter((p) => p.pinned_at).length, 1);
    t.equal(posts.filter((p) => p.locked_at).length, 1);
    const actions = await db.selectFrom('forum_actions').selectAll().where('community_id', '=', summit.id).execute();
    t.same(new Set(actions.map((a) => a.action)), new Set(['pin', 'lock', 'approve', 'topic_archive']));
    const admin = await userId('admin@example.com');
    t.ok(actions.every((a) => a.actor_id === admin));
  });

  await t.test('reply and like counts equal the rows they count', async (t) => {
    const counts = await sql<{ id: number; reply_count: number; like_count: number; replies: number; likes: number }>`
      select p.id, p.reply_count, p.like_count,
        (select count(*)::int from forum_replies r where r.post_id = p.id and r.status = 'published' and r.deleted_at is null) as replies,
        (select count(*)::int from forum_likes l where l.target_kind = 'post' and l.target_id = p.id) as likes
      from forum_posts p where p.community_id = ${summit.id}`.execute(db);
    for (const c of counts.rows) {
      t.equal(c.reply_count, c.replies, `post ${c.id}: reply_count`);
      t.equal(c.like_count, c.likes, `post ${c.id}: like_count`);
    }
    const wrong = await sql<{ n: number }>`
      select count(*)::int as n from forum_replies r
      where r.community_id = ${summit.id} and r.like_count <> (select count(*) from forum_likes l where l.target_kind = 'reply' and l.target_id = r.id)`.execute(db);
    t.equal(wrong.rows[0]!.n, 0, 'every reply like_count too');
    const replies = counts.rows.reduce((s, c) => s + c.replies, 0);
    const likes = counts.rows.reduce((s, c) => s + c.likes, 0);
    t.ok(replies > 150, `${replies} replies`);
    t.ok(likes > 300, `${likes} post likes`);
    t.ok(Math.max(...counts.rows.map((c) => c.replies)) >= 25, 'one thread long enough to page');
    t.ok(counts.rows.every((c) => c.replies <= 25));
    const reactions = await db.selectFrom('forum_reactions').select(['user_id', 'reaction']).where('community_id', '=', summit.id).execute();
    t.ok(reactions.length > 50 && new Set(reactions.map((r) => r.user_id)).size > 20, `${reactions.length} reactions from many members`);
    t.ok(new Set(reactions.map((r) => r.reaction)).size >= 4, 'of every kind');
    const likers = await db.selectFrom('forum_likes').select('user_id').distinct().where('community_id', '=', summit.id).execute();
    t.ok(likers.length > 30, `${likers.length} members like things`);
  });

  await t.test('nobody likes their own post or reply, and every author follows their post', async (t) => {
    const own = await sql<{ n: number }>`
      select count(*)::int as n from forum_likes l
      left join forum_posts p on l.target_kind = 'post' and p.id = l.target_id
      left join forum_replies r on l.target_kind = 'reply' and r.id = l.target_id
      where l.community_id = ${summit.id} and l.user_id = coalesce(p.author_id, r.author_id)`.execute(db);
    t.equal(own.rows[0]!.n, 0);
    const follows = await db.selectFrom('forum_follows').select(['post_id', 'user_id']).where('community_id', '=', summit.id).execute();
    const followed = new Set(follows.map((f) => `${f.post_id}:${f.user_id}`));
    t.ok(posts.every((p) => followed.has(`${p.id}:${p.author_id}`)));
    t.ok(follows.filter((f) => f.user_id === amara && !posts.some((p) => p.id === f.post_id && p.author_id === amara)).length >= 2, 'Amara follows others\u2019 posts');
  });

  await t.test("the groups' discussions: a few posts outside the forum, followed by who wrote and replied, without topics", async (t) => {
    const inGroups = await db.selectFrom('forum_posts').select(['id', 'author_id']).where('community_id', '=', summit.id).where('group_id', 'is not', null).execute();
    t.ok(inGroups.length >= 2, `${inGroups.length} posts in groups`);
    const follows = await db.selectFrom('forum_follows').select(['post_id', 'user_id']).where('post_id', 'in', inGroups.map((p) => p.id)).execute();
    t.ok(inGroups.every((p) => follows.some((f) => f.post_id === p.id && f.user_id === p.author_id)), 'their authors follow them');
    t.equal((await db.selectFrom('forum_post_topics').select('post_id').where('post_id', 'in', inGroups.map((p) => p.id)).execute()).length, 0, 'no topics');
  });

  await t.test('Amara has a post of her own and a reply mentions her with a link to her profile', async (t) => {
    t.ok(posts.some((p) => p.author_id === amara && p.status === 'published'));
    const mentions = await db.selectFrom('forum_replies').select(['body_html', 'body_text']).where('community_id', '=', summit.id).where('body_html', 'like', `%href="/profile/${amara}"%`).execute();
    t.equal(mentions.length, 1);
    t.match(mentions[0]!.body_html, `<a href="/profile/${amara}">@amara.okafor</a>`);
    t.match(mentions[0]!.body_text, '@amara.okafor');
  });

  await t.test('Daniel is the moderator', async (t) => {
    const m = await db.selectFrom('memberships').select('is_moderator').where('community_id', '=', summit.id).where('user_id', '=', daniel).executeTakeFirstOrThrow();
    t.equal(m.is_moderator, true);
  });
});

// From notifications/push-seed.test.ts (the seeded demo, one file for all its areas).
t.test('the demo: a Summit member with an iPhone and an Android phone registered', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const summit = await db.selectFrom('communities').select('id').where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = await db.selectFrom('users').select('id').where('username', '=', 'amara.okafor').executeTakeFirstOrThrow();
  const devices = await listDevices(db, { communityId: summit.id, userId: amara.id });
  t.same(devices.map((d) => d.platform), ['fcm', 'ios'], 'newest first');
});

// From settings/team-seed.test.ts (the seeded demo, one file for all its areas).
t.test('the demo team contacts: summit and harbor members with assistants and PR contacts that pass the rules', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const rows = await db
    .selectFrom('support_contacts')
    .innerJoin('communities', 'communities.id', 'support_contacts.community_id')
    .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'support_contacts.user_id').onRef('memberships.community_id', '=', 'support_contacts.community_id'))
    .select(['communities.code', 'support_contacts.type', 'support_contacts.name', 'support_contacts.email', 'support_contacts.mobile_country_code', 'support_contacts.mobile_number', 'support_contacts.office_country_code', 'support_contacts.office_number', 'support_contacts.office_extension'])
    .execute();
  const summit = rows.filter((r) => r.code === 'summit');
  const harbor = rows.filter((r) => r.code === 'harbor');
  t.ok(summit.length >= 5, `${summit.length} in summit, each the member's own`);
  t.ok(harbor.length >= 2, `${harbor.length} in harbor`);
  t.ok(rows.some((r) => r.type === 'ea') && rows.some((r) => r.type === 'pr'), 'both types');
  for (const r of rows) {
    t.match(r.email, /@[a-z0-9.]+\.example\.com$/, `${r.name}: an example.com address`);
    const checked = checkContact({
      name: r.name,
      email: r.email,
      mobilePhone: { countryCode: r.mobile_country_code, number: r.mobile_number },
      officePhone: { countryCode: r.office_country_code, number: r.office_number, extension: r.office_extension },
    });
    t.same(checked.errors, {}, `${r.name}: valid as the form would take it`);
    t.equal(checked.values?.mobilePhone?.number ?? null, r.mobile_number, `${r.name}: stored as the form stores it`);
  }
});

// From members/directory-seed.test.ts (the seeded demo, one file for all its areas).
t.test('the demo directory: about sixty Summit members with complete company profiles', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const harbor = await db.selectFrom('communities').selectAll().where('code', '=', 'harbor').executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.email', 'memberships.community_id', 'memberships.industry', 'memberships.company_employee_count', 'memberships.company_description', 'memberships.link_linkedin', 'memberships.link_website', 'memberships.joined_at', 'memberships.is_founding'])
    .execute();
  const members = rows.filter((r) => r.email !== 'admin@example.com');
  const inSummit = members.filter((r) => r.community_id === summit.id);
  t.ok(inSummit.length >= 58 && inSummit.length <= 62, `${inSummit.length} Summit members`);
  t.equal(members.filter((r) => r.community_id === harbor.id).length, 5);
  for (const m of members) {
    t.ok(m.industry && m.company_employee_count && m.company_description, `${m.email} has a company profile`);
    t.match(m.link_linkedin, /^https:\/\/www\.linkedin\.com\/in\/[a-z0-9-]+$/);
    t.match(m.link_website, /^https:\/\/www\.[a-z0-9]+\.example\.com$/);
  }
  t.ok(new Set(inSummit.map((m) => m.industry)).size >= 10, 'varied industries');
  t.ok(inSummit.filter((m) => m.is_founding).length >= 5, 'founding members');
  const years = inSummit.map((m) => new Date(m.joined_at).getTime());
  t.ok(Math.max(...years) - Math.min(...years) > 600 * 86_400_000, 'joined over about two years');

  // The directory reads it: the misspelt company finds its member; Discover has reasons.
  forgetFilterOptions();
  const deps = { db, community: summit, clock: systemClock };
  const found = await listDirectory(deps, parseDirectoryQuery({ q: 'Lumen Analitics' }));
  t.equal(found.members[0]?.name, 'Amara Okafor');
  const amara = await db.selectFrom('users').select('id').where('email', '=', 'amara.okafor@summit-demo.example.com').executeTakeFirstOrThrow();
  const suggestions = await listSuggestions(deps, amara.id);
  t.same([...new Set(suggestions.map((s) => s.reason))], ['industry', 'city', 'new']);
});

// From payments/seed.test.ts (the seeded demo, one file for all its areas).
t.test('the payments demo: memberships, statements, saved cards in each status, an overdue member, an invitee', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });

  const summit = await db.selectFrom('communities').select('id').where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = await db.selectFrom('users').select('id').where('username', '=', 'amara.okafor').executeTakeFirstOrThrow();
  const cards = await db.selectFrom('saved_payments').selectAll().where('user_id', '=', amara.id).where('community_id', '=', summit.id).execute();
  t.same(new Set(cards.map((c) => c.status)), new Set(['VALID', 'EXPIRATION_PENDING', 'EXPIRED', 'FAILED']), 'Amara has a card in each status');
  t.equal(cards.filter((c) => c.is_default).length, 1, 'one default');
  const log = await db.selectFrom('card_auth_log').select(['auth_response_code', 'reversal_http_code']).where('community_id', '=', summit.id).execute();
  t.ok(log.some((l) => l.auth_response_code === 0 && l.reversal_http_code === 200), 'an approved, reversed verification');
  t.ok(log.some((l) => l.auth_response_code! > 0), 'a refused attempt');

  await t.test('every member but staff and the invitee has a subscription; the overdue one owes its dues', async (t) => {
    const overdue = await db.selectFrom('subscriptions').selectAll().where('id', '=', DEMO_OVERDUE.subscriptionId).executeTakeFirstOrThrow();
    t.equal(overdue.status, 'past_due');
    t.ok(overdue.outstanding_cents > 0);
    const withoutSubscription = await db
      .selectFrom('memberships')
      .leftJoin('subscriptions', (j) => j.onRef('subscriptions.user_id', '=', 'memberships.user_id').onRef('subscriptions.community_id', '=', 'memberships.community_id'))
      .select('memberships.user_id')
      .where('subscriptions.id', 'is', null)
      .where(sql<boolean>`not ('ADMIN' = any(memberships.roles))`)
      .where('memberships.gate', '=', 'app')
      .execute();
    t.equal(withoutSubscription.length, 0);
  });

  await t.test('statements add up to the succeeded charges, per member', async (t) => {
    const mismatched = await sql<{ user_id: number }>`
      select l.user_id from payment_ledger l
      where l.kind = 'charge' and l.status = 'succeeded'
      group by l.community_id, l.user_id
      having sum(l.amount_cents) <> (select coalesce(sum(s.amount_cents), 0) from statements s where s.community_id = l.community_id and s.user_id = l.user_id)
    `.execute(db);
    t.same(mismatched.rows, []);
    const count = await db.selectFrom('statements').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', amara.id).executeTakeFirstOrThrow();
    t.ok(count.n >= 3, `Amara has ${count.n} statements`);
  });

  await t.test('the saved cards are real profiles at the sandbox: the default card can be charged', async (t) => {
    const card = cards.find((c) => c.is_default)!;
    const result = await chargeOnce(app, {
      community: summit,
      userId: amara.id,
      actorId: null,
      idempotencyKey: 'seed-test-charge-1',
      amountCents: 100,
      purpose: 'amplification',
      description: 'Test',
      items: [{ label: 'Test', amountCents: 100 }],
      statement: { kind: 'purchase', name: 'Test' },
      source: { savedPaymentId: card.id },
    });
    t.equal(result.status, 'succeeded');
  });

  await t.test("the README's links name these ids: Jonah Whitaker's pay-now, Amara Okafor's saved cards", async (t) => {
    const readme = (await import('node:fs')).readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const overdue = await db.selectFrom('subscriptions').select('user_id').where('id', '=', DEMO_OVERDUE.subscriptionId).executeTakeFirstOrThrow();
    t.ok(readme.includes(`/pay-now?userId=${overdue.user_id}&subscriptionId=${DEMO_OVERDUE.subscriptionId}`), 'the pay-now link');
    t.ok(readme.includes(`/admin/members/summit/${amara.id}/cards`), 'the saved cards link');
    t.ok(readme.includes(`/get-started?uid=${DEMO_INVITEE.uid}&dealId=${DEMO_INVITEE.dealId}`), 'the invitation link');
  });

  await t.test('the invitee is in onboarding with an invitation', async (t) => {
    const row = await db
      .selectFrom('onboardings')
      .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'onboardings.user_id').onRef('memberships.community_id', '=', 'onboardings.community_id'))
      .select(['memberships.gate', 'onboardings.paid_at'])
      .where('onboardings.id', '=', DEMO_INVITEE.uid)
      .executeTakeFirstOrThrow();
    t.equal(row.gate, 'onboarding');
    t.equal(row.paid_at, null);
  });
});

// From expert-panels/questions-seed.test.ts (the seeded demo, one file for all its areas).
t.test("the demo's expert panels, as Amara Okafor sees them", async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const amara = (await db.selectFrom('users').select('id').where('email', '=', 'amara.okafor@summit-demo.example.com').executeTakeFirstOrThrow()).id;
  const deps: EpDeps = { db, clock: app.clock, community: summit, t: app.t, notifier: app.notifications, publicUrl: app.config.publicUrl, jobs: app.jobs };
  const viewer = { userId: amara, isStaff: false };

  await t.test('two panels, Amara in both; answers in every state', async (t) => {
    const panels = await db.selectFrom('ep_panels').select(['id', 'name']).where('community_id', '=', summit.id).orderBy('id').execute();
    t.same(panels.map((p) => p.name), ['Growth & Go-to-Market', 'Leadership & Teams']);
    const mine = await db.selectFrom('ep_panel_members').select('panel_id').where('user_id', '=', amara).execute();
    t.equal(mine.length, 2);
    const statuses = new Set((await db.selectFrom('ep_answers').select('status').where('community_id', '=', summit.id).execute()).map((r) => r.status));
    t.same([...statuses].sort(), [...ANSWER_STATUSES].sort(), 'every state');
  });

  await t.test('every written answer keeps to its panel’s word range', async (t) => {
    const rows = await db
      .selectFrom('ep_answers as a')
      .innerJoin('ep_questions as q', 'q.id', 'a.question_id')
      .innerJoin('ep_panels as p', 'p.id', 'q.panel_id')
      .select(['a.body_html', 'a.word_count', 'p.min_words', 'p.max_words'])
      .where('a.body_html', '!=', '')
      .execute();
    for (const r of rows) t.ok(checkAnswer(r.body_html, { min: r.min_words, max: r.max_words }).ok, `${r.word_count} words`);
  });

  await t.test('Amara: three open questions to answer (one already in review), one answered, one published', async (t) => {
    const open = await listMemberQuestions(deps, viewer, { tab: 'open' });
    t.equal(open.rows.length, 2, 'two she can answer now');
    t.ok(open.rows.every((r) => !r.closed && r.deadlineAt.getTime() > Date.now() + 9 * 86_400_000), 'due in about ten days');
    t.same(open.counts, { open: 2, 'in-review': 1, answered: 2, published: 1 });
    const published = (await listMemberQuestions(deps, viewer, { tab: 'published' })).rows[0]!;
    t.same(published.roundup, { title: 'Pricing moves that paid off: three leaders on what changed their revenue', path: '/expert-panels/roundups/pricing-moves-that-paid-off' });
    const view = await getQuestion(deps, viewer, published.questionId);
    t.equal(view.closed, true, 'the older batch is closed');
    t.ok(view.answer.editorRevision, "the editor's light edit");
    const inReview = (await listMemberQuestions(deps, viewer, { tab: 'in-review' })).rows[0]!;
    t.equal((await getQuestion(deps, viewer, inReview.questionId)).answer.editable, true, 'still editable');
  });

  await t.test('the roundup: FINAL, three answers in order, its moves logged by the admin', async (t) => {
    const roundup = await db.selectFrom('ep_roundups').selectAll().where('community_id', '=', summit.id).executeTakeFirstOrThrow();
    t.equal(roundup.status, 'FINAL');
    t.ok(roundup.published_at);
    const answers = await db.selectFrom('ep_roundup_answers').select('position').where('roundup_id', '=', roundup.id).orderBy('position').execute();
    t.same(answers.map((a) => a.position), [1, 2, 3]);
    const moves = await db.selectFrom('ep_roundup_moves').select(['from_status', 'to_status']).where('roundup_id', '=', roundup.id).orderBy('id').execute();
    t.same(moves.map((m) => `${m.from_status}>${m.to_status}`), ['DRAFT>EDITOR_REVIEW', 'EDITOR_REVIEW>READY_FOR_PUBLISHING', 'READY_FOR_PUBLISHING>FINAL']);
  });

  await t.test("what the services would have told Amara: the open batch's questions (unread), the decisions, the published roundup", async (t) => {
    const mine = await db
      .selectFrom('notifications')
      .select(['kind', 'url', 'message', 'read_at', 'viewed_at'])
      .where('community_id', '=', summit.id)
      .where('user_id', '=', amara)
      .where('kind', 'in', ['expert_questions', 'expert_answers'])
      .orderBy('created_at')
      .execute();
    const unread = mine.filter((n) => n.read_at === null);
    t.equal(unread.length, 1, 'one unread: the open batch');
    t.match(unread[0], { kind: 'expert_questions', url: '/expert-panels', viewed_at: null });
    t.match(unread[0]!.message, /^3 new expert-panel questions from .+ for you: please answer by /);
    const published = mine.find((n) => n.url === '/expert-panels/roundups/pricing-moves-that-paid-off');
    t.equal(published?.message, 'Your expert answer is published in the roundup “Pricing moves that paid off: three leaders on what changed their revenue”.');
    const decisions = mine.filter((n) => n.kind === 'expert_answers' && n.url !== published?.url);
    t.equal(decisions.length, 2, 'her two decided answers');
    t.ok(decisions.every((n) => /^\/expert-panels\/\d+$/.test(n.url) && /^Your answer to ".+" was (accepted|not accepted)/.test(n.message)));
    const { cookie } = await signIn(app, { id: amara }, summit);
    for (const n of mine) {
      const page = await app.inject({ url: n.url, headers: { accept: 'text/html', cookie } });
      t.equal(page.statusCode, 200, `${n.url} opens`);
    }
  });
});
