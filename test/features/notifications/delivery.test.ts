import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { deliveryJobs } from '#src/features/notifications/delivery.ts';
import { DIGEST_JOB, preferenceJobs, sendDigests } from '#src/features/notifications/digest.ts';
import { mailContext } from '#src/features/notifications/email-delivery.ts';
import { CHANNELS, notificationKinds, type NotificationKind } from '#src/lib/notification-kinds.ts';
import { selectPreference, setEmailDigest } from '#src/features/notifications/preferences.ts';
import type { Community } from '#src/db/types.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, type TestUser } from '#test/helpers/factories.ts';

const HOUR = 60 * 60 * 1000;

/**
 * Email delivery of notifications: at once, honouring each kind's email choice, once however often
 * the job runs; or gathered into one daily digest. Push is turned off for these members: the push
 * channel is another slice's, and these tests are about email.
 */
t.test('email delivery', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });

  const member = async (community: Community, firstName: string) => {
    const m = await createMember(db, community, { firstName });
    for (const k of notificationKinds()) await selectPreference(db, { communityId: community.id, userId: m.id }, `${k.id}:push`, false, clock.now());
    return m;
  };
  const ada = await member(alpha, 'Ada');
  const bob = await member(alpha, 'Bob');
  const bea = await member(beta, 'Bea');

  const notify = (app: FastifyInstance, community: Community, user: TestUser, kind: NotificationKind, message: string) =>
    app.notifications.notify(db, { communityId: community.id, userId: user.id, kind, url: '/articles/edit', message, createdAt: clock.now() });
  const mailsTo = (user: TestUser) => app.outbox.messages.filter((m) => m.to === user.email && m.channel === 'email');
  const runDigest = async () => {
    const job = preferenceJobs(app).find((j) => j.name === DIGEST_JOB)!;
    t.equal(job.schedule, '5 * * * *', 'the digest runs hourly');
    await job.handler({});
    await app.jobs.drain();
  };

  await t.test('at once: one mail naming the community, with the message, its link and a one-click unsubscribe', async (t) => {
    await notify(app, alpha, ada, 'article_feedback', 'Your editor left feedback on “Scaling teams”.');
    await app.jobs.drain();
    const mails = mailsTo(ada);
    t.equal(mails.length, 1);
    const mail = mails[0]!;
    t.equal(mail.subject, 'Alpha Council: Editor feedback');
    t.match(mail.text, 'Hello Ada,');
    t.match(mail.text, 'Your editor left feedback on “Scaling teams”.');
    t.match(mail.text, `Open it: ${app.config.publicUrl}/articles/edit`);
    const header = mail.headers?.['List-Unsubscribe'];
    t.match(header, new RegExp(`^<${app.config.publicUrl}/notifications/unsubscribe\\?token=[\\w.-]+>$`), 'List-Unsubscribe: the absolute link');
    t.equal(mail.headers?.['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click', 'RFC 8058 one-click');
    t.match(mail.text, `Unsubscribe from “Editor feedback” email: ${header!.slice(1, -1)}`, 'the same link in the body');
    t.match(mail.text, `${app.config.publicUrl}/settings/notifications`);
    const rows = await db.selectFrom('notification_deliveries').selectAll().where('user_id', '=', ada.id).execute();
    t.match(rows, [{ channel: 'email', target: ada.email, status: 'sent' }]);
  });

  await t.test('each kind and channel is honoured: email off for a kind sends nothing; web off hides it from the list only', async (t) => {
    const ref = { communityId: alpha.id, userId: ada.id };
    await selectPreference(db, ref, 'article_feedback:email', false, clock.now());
    await selectPreference(db, ref, 'article_progress:web', false, clock.now());
    const before = mailsTo(ada).length;
    await notify(app, alpha, ada, 'article_feedback', 'Your editor left feedback.');
    await app.jobs.drain();
    t.equal(mailsTo(ada).length, before, 'no mail for a kind whose email is off');
    const progressId = await notify(app, alpha, ada, 'article_progress', 'Your article was published.');
    await app.jobs.drain();
    t.equal(mailsTo(ada).length, before + 1, 'email still on for article progress');
    t.equal(mailsTo(ada)[0]!.subject, 'Alpha Council: Article progress');
    const row = await db.selectFrom('notifications').select('shown').where('id', '=', progressId).executeTakeFirstOrThrow();
    t.equal(row.shown, false, 'web off: not in the list');
    await notify(app, alpha, ada, 'introductions', 'Your introduction to Bob was approved.');
    await app.jobs.drain();
    t.equal(mailsTo(ada).length, before + 1, 'an introduction outcome never mails through the notification: its own mail carries it');
    await t.rejects(selectPreference(db, ref, 'introductions:email', true, clock.now()), { code: 'Notifications.UnknownPreference' }, 'no email choice for introductions');
    for (const c of CHANNELS) await selectPreference(db, ref, `account_security:${c}`, c === 'email', clock.now());
  });

  await t.test('a retried deliver job mails once', async (t) => {
    const id = await notify(app, alpha, ada, 'account_security', 'Your password was changed.');
    const handler = deliveryJobs(app)[0]!.handler;
    await handler({ id, communityId: alpha.id });
    await handler({ id, communityId: alpha.id });
    await app.jobs.drain(); // the queued job runs a third time
    t.equal(mailsTo(ada).filter((m) => m.text.includes('Your password was changed.')).length, 1, 'one mail');
  });

  await t.test('a deliver job queued before its data named the community still mails, once', async (t) => {
    const id = await notify(app, alpha, ada, 'account_security', 'Your sign-in email was changed.');
    const mails = () => mailsTo(ada).filter((m) => m.text.includes('Your sign-in email was changed.')).length;
    const handler = deliveryJobs(app)[0]!.handler;
    await handler({ id }); // the data a job queued before the deploy carries
    const delivered = await db.selectFrom('notification_deliveries').select(['community_id', 'channel']).where('notification_id', '=', id).execute();
    t.same(delivered, [{ community_id: alpha.id, channel: 'email' }], 'delivered by email, in the notification\'s own community (its row named it)');
    await app.jobs.drain(); // the mail goes out; the queued job (with its community) finds it delivered
    t.equal(mails(), 1, 'one mail');
    await handler({ id: id + 10_000 });
    t.pass('a notification that is gone is nothing to deliver');
  });

  await t.test('the daily digest: two notifications, one mail, newest first; not again within 24 hours', async (t) => {
    await setEmailDigest(db, { communityId: alpha.id, userId: bob.id }, true, clock.now());
    await notify(app, alpha, bob, 'article_progress', 'First: your article moved to review.');
    clock.advance(60_000);
    await notify(app, alpha, bob, 'article_feedback', 'Second: your editor left feedback.');
    await app.jobs.drain();
    t.equal(mailsTo(bob).length, 0, 'nothing sent at once');
    const waiting = await db.selectFrom('notification_deliveries').select('status').where('user_id', '=', bob.id).execute();
    t.same(waiting.map((r) => r.status), ['digest', 'digest'], 'both wait for the digest');

    await runDigest();
    const mails = mailsTo(bob);
    t.equal(mails.length, 1, 'one digest mail');
    const mail = mails[0]!;
    t.equal(mail.subject, 'Alpha Council: your daily digest (2 notifications)');
    t.ok(mail.text.indexOf('Second: your editor') < mail.text.indexOf('First: your article'), 'newest first');
    t.match(mail.text, `${app.config.publicUrl}/articles/edit`);
    t.match(mail.text, /“Article progress” email: http\S+token=/);
    t.match(mail.text, /“Editor feedback” email: http\S+token=/);
    t.match(mail.text, /All notification email: http\S+token=/);
    t.equal(mail.headers?.['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');
    t.match(mail.headers?.['List-Unsubscribe'], /^<http\S+\/notifications\/unsubscribe\?token=[\w.-]+>$/);
    const sent = await db.selectFrom('notification_deliveries').select('status').where('user_id', '=', bob.id).execute();
    t.same(sent.map((r) => r.status), ['sent', 'sent']);

    await runDigest();
    t.equal(mailsTo(bob).length, 1, 'running again sends nothing more');

    clock.advance(2 * HOUR);
    await notify(app, alpha, bob, 'article_feedback', 'Third: more feedback from your editor.');
    await app.jobs.drain();
    await runDigest();
    t.equal(mailsTo(bob).length, 1, 'within 24 hours of the last digest: it waits');

    clock.advance(22 * HOUR);
    await runDigest();
    t.equal(mailsTo(bob).length, 2, '24 hours later: the next digest');
    t.equal(mailsTo(bob)[0]!.subject, 'Alpha Council: your daily digest (1 notification)');
    t.match(mailsTo(bob)[0]!.text, 'Third: more feedback from your editor.');
    t.notMatch(mailsTo(bob)[0]!.text, 'First:', 'what was sent is not sent again');
  });

  await t.test('tenancy: each member’s digest holds their own community’s notifications only', async (t) => {
    await setEmailDigest(db, { communityId: beta.id, userId: bea.id }, true, clock.now());
    await notify(app, beta, bea, 'article_feedback', 'Beta feedback for Bea.');
    await app.jobs.drain();
    clock.advance(HOUR);
    await runDigest();
    const mails = mailsTo(bea);
    t.equal(mails.length, 1);
    t.equal(mails[0]!.subject, 'Beta Guild: your daily digest (1 notification)');
    t.notMatch(mails[0]!.text, 'Alpha');
    t.equal(mailsTo(bob).length, 2, 'Bob got nothing more');
  });

  await t.test('a kind whose email was turned off while its rows waited is dropped from the digest', async (t) => {
    const cy = await member(alpha, 'Cy');
    const ref = { communityId: alpha.id, userId: cy.id };
    await setEmailDigest(db, ref, true, clock.now());
    await notify(app, alpha, cy, 'article_progress', 'Progress for Cy.');
    await notify(app, alpha, cy, 'article_feedback', 'Feedback for Cy.');
    await app.jobs.drain();
    await selectPreference(db, ref, 'article_progress:email', false, clock.now());
    await runDigest();
    const mails = mailsTo(cy);
    t.equal(mails.length, 1);
    t.equal(mails[0]!.subject, 'Alpha Council: your daily digest (1 notification)');
    t.match(mails[0]!.text, 'Feedback for Cy.');
    t.notMatch(mails[0]!.text, 'Progress for Cy.');
    const left = await db.selectFrom('notification_deliveries').select('status').where('user_id', '=', cy.id).execute();
    t.same(left.map((r) => r.status), ['sent'], 'the dropped row no longer waits');
  });
  await t.test('the digest goes to the member’s address of today, once, when it changed while items waited', async (t) => {
    const dee = await member(alpha, 'Dee');
    const ref = { communityId: alpha.id, userId: dee.id };
    await setEmailDigest(db, ref, true, clock.now());
    await notify(app, alpha, dee, 'article_progress', 'Queued for the old address.');
    await app.jobs.drain();
    const newAddress = `dee.new.${dee.id}@example.test`;
    await db.updateTable('users').set({ email: newAddress }).where('id', '=', dee.id).execute();
    await notify(app, alpha, dee, 'article_feedback', 'Queued for the new address.');
    await app.jobs.drain();
    const targets = await db.selectFrom('notification_deliveries').select('target').where('user_id', '=', dee.id).orderBy('created_at').execute();
    t.same(new Set(targets.map((r) => r.target)), new Set([dee.email, newAddress]), 'rows queued for both addresses');
    await runDigest();
    t.equal(mailsTo(dee).length, 0, 'nothing to the old mailbox');
    const mails = app.outbox.messages.filter((m) => m.to === newAddress && m.channel === 'email');
    t.equal(mails.length, 1, 'one digest, to the new address');
    t.equal(mails[0]!.subject, 'Alpha Council: your daily digest (2 notifications)');
    t.match(mails[0]!.text, 'Queued for the old address.');
    t.match(mails[0]!.text, 'Queued for the new address.');
  });

  await t.test('two digest runs at the same time send one digest', async (t) => {
    const eve = await member(alpha, 'Eve');
    await setEmailDigest(db, { communityId: alpha.id, userId: eve.id }, true, clock.now());
    await notify(app, alpha, eve, 'article_progress', 'Raced item one.');
    await notify(app, alpha, eve, 'article_feedback', 'Raced item two.');
    await app.jobs.drain();
    const handler = preferenceJobs(app).find((j) => j.name === DIGEST_JOB)!.handler;
    await Promise.all([handler({}), handler({})]);
    await app.jobs.drain();
    t.equal(mailsTo(eve).length, 1, 'one mail');
    t.equal(mailsTo(eve)[0]!.subject, 'Alpha Council: your daily digest (2 notifications)');
    // A run that starts after the other's gathering but before its claim: rows freshly queued
    // after a digest within the hour still wait for the next day.
    await notify(app, alpha, eve, 'article_feedback', 'After the digest.');
    await app.jobs.drain();
    clock.advance(HOUR);
    await Promise.all([handler({}), handler({})]);
    await app.jobs.drain();
    t.equal(mailsTo(eve).length, 1, 'no second digest within 24 hours');
  });

  await t.test('due members are worked through in batches: every one gets their digest', async (t) => {
    const many = [];
    for (const name of ['Fay', 'Gus', 'Hal', 'Ivy', 'Jon']) {
      const m = await member(alpha, name);
      await setEmailDigest(db, { communityId: alpha.id, userId: m.id }, true, clock.now());
      await notify(app, alpha, m, 'article_progress', `Batch item for ${name}.`);
      many.push(m);
    }
    await app.jobs.drain();
    const n = await sendDigests(app.db, mailContext(app), (trx, mail) => app.messages.mail(trx, mail), clock.now(), 2);
    await app.jobs.drain();
    t.equal(n, 5, 'five digests across three batches of at most two members');
    for (const m of many) t.equal(mailsTo(m).length, 1, `one digest for ${m.email}`);
  });
});
