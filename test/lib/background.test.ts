import t from 'tap';
import { buildApp } from '#src/app.ts';
import type { Mailer, OutgoingMail } from '#src/lib/messaging/mail.ts';
import { Background } from '#src/lib/background.ts';
import { setupDatabase, testClock, testConfig } from '#test/helpers/app.ts';
import { setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor } from '#test/helpers/factories.ts';

t.test('Background: tasks start after the caller, failures are logged, idle waits for all', async (t) => {
  const errors: string[] = [];
  const bg = new Background((err, name) => errors.push(`${name}: ${(err as Error).message}`));
  const order: string[] = [];
  bg.run('first', async () => void order.push('task'));
  order.push('caller');
  bg.run('broken', async () => {
    throw new Error('boom');
  });
  await bg.idle();
  t.same(order, ['caller', 'task']);
  t.same(errors, ['broken: boom']);
  await bg.idle();
});

/** A mailer whose sends wait until the test lets them go. */
class HeldMailer implements Mailer {
  sent: OutgoingMail[] = [];
  private gate: Promise<void>;
  release!: () => void;
  constructor(private readonly fail = false) {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  async send(mail: OutgoingMail) {
    await this.gate;
    if (this.fail) throw new Error('SMTP is down');
    this.sent.push(mail);
  }
}

t.test('a reset request is answered before its mail is sent, for a member as for a stranger', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha' });
  const community = (await db.selectFrom('communities').selectAll().where('code', '=', 'alpha').executeTakeFirstOrThrow());
  const member = await createMember(db, community);
  await setPassword(db, member.id);
  for (const fail of [false, true]) {
    const mailer = new HeldMailer(fail);
    const app = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db, clock: testClock(), mailer });
    await app.ready();
    const { token, cookie } = await csrfFor(app, '', '/password/forgot');
    const post = (email: string) =>
      app.inject({ method: 'POST', url: '/password/forgot', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ email, method: 'link', _csrf: token }).toString() });
    const [forMember, forStranger] = await Promise.all([post(member.email), post('stranger@example.com')]);
    t.equal(forMember.statusCode, forStranger.statusCode, 'the same answer');
    t.match(forMember.body, 'Check your inbox');
    t.match(forStranger.body, 'Check your inbox');
    t.equal(mailer.sent.length, 0, 'answered while the mail is still waiting to go');
    mailer.release();
    await app.background.idle();
    t.same(mailer.sent.map((m) => m.to), fail ? [] : [member.email], fail ? 'a failed send is logged, not thrown at anyone' : 'then the member gets the link, the stranger nothing');
    await app.close();
  }
});
