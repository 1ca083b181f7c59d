import t from 'tap';
import { invitationExpiry, invitationPath } from '#src/features/expert-panels/invite/links.ts';
import { csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';
import { inviteWorld } from './invite-helpers.ts';

const QUERY = 'query Q($ids: [ID!], $member: ID!, $expires: Int!, $signature: String!) { expertInvitationQuestions(ids: $ids, member: $member, expires: $expires, signature: $signature) { id title panelName deadline briefHtml guidelinesHtml minWords maxWords } }';

t.test('invitation questions on the member GraphQL schema', async (t) => {
  const w = await inviteWorld(t);
  const { app, db, clock, alpha, secret } = w;
  const ada = await w.member(alpha, 'Ada', 'Lovelace');
  const bob = await w.member(alpha, 'Bob', 'Builder');
  const pricing = await w.panel(alpha, 'Pricing', { min: 3, max: 20 });
  const b = await w.batch(alpha, pricing, { deadline: new Date('2026-12-05T17:00:00Z'), questions: ['Raise prices?', 'Annual plans?'], members: [ada, bob] });
  /** A link's parts as the operation's variables. */
  const varsFor = (user: TestUser, expiresAt = invitationExpiry(clock.now())) => {
    const q = Object.fromEntries(new URL(invitationPath(secret, { communityId: alpha.id, userId: user.id, questionIds: b.questionIds, expiresAt }), 'http://x').searchParams);
    return { ids: q.ids!.split(','), member: q.m!, expires: Number(q.exp), signature: q.sig! };
  };
  const gql = (variables: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query: QUERY, variables }) });
  const codeOf = (res: { json(): any }) => res.json().errors?.[0]?.extensions?.code;

  await t.test('signed out, the signature authorises: the open questions', async (t) => {
    const res = await gql(varsFor(ada));
    t.same(
      res.json().data?.expertInvitationQuestions,
      [
        { id: String(b.questionIds[0]), title: 'Raise prices?', panelName: 'Pricing', deadline: '2026-12-05T17:00:00.000Z', briefHtml: '<p>Brief of Raise prices?</p>', guidelinesHtml: '<p>Guidelines of Raise prices?</p>', minWords: 3, maxWords: 20 },
        { id: String(b.questionIds[1]), title: 'Annual plans?', panelName: 'Pricing', deadline: '2026-12-05T17:00:00.000Z', briefHtml: '<p>Brief of Annual plans?</p>', guidelinesHtml: '<p>Guidelines of Annual plans?</p>', minWords: 3, maxWords: 20 },
      ],
      res.body,
    );
  });

  await t.test('with a bearer token: the link’s member (even expired), never another', async (t) => {
    const adaBearer = { authorization: `Bearer ${(await signIn(app, ada, alpha)).token}` };
    const bobBearer = { authorization: `Bearer ${(await signIn(app, bob, alpha)).token}` };
    const mine = await gql(varsFor(ada, new Date(clock.now().getTime() - 1000)), adaBearer);
    t.equal(mine.json().data?.expertInvitationQuestions.length, 2, mine.body);
    const other = await gql(varsFor(ada), bobBearer);
    t.equal(codeOf(other), 'ExpertPanels.InviteLoadFailed');
    t.match(other.json().errors?.[0]?.message, 'We could not load the questions of this invitation');
  });

  await t.test('with the cookie and the CSRF token, as the pages do', async (t) => {
    const jar = await csrfFor(app, (await signIn(app, ada, alpha)).cookie, '/');
    const ok = await gql(varsFor(ada), { cookie: jar.cookie, 'x-csrf-token': jar.token });
    t.equal(ok.json().data?.expertInvitationQuestions.length, 2, ok.body);
    const noToken = await gql(varsFor(ada), { cookie: jar.cookie });
    t.equal(noToken.statusCode, 403, 'the cookie without the token is refused');
  });

  await t.test('the three invite errors, with their codes; hostile values are errors too, never a 500', async (t) => {
    const missing = await gql({ ...varsFor(ada), ids: [] });
    t.equal(codeOf(missing), 'ExpertPanels.InviteMissingIds');
    t.match(missing.json().errors?.[0]?.message, 'required argument ids');
    const omitted = await gql({ ...varsFor(ada), ids: null });
    t.equal(codeOf(omitted), 'ExpertPanels.InviteMissingIds', 'ids left out: the same error');
    t.equal(codeOf(await gql({ ...varsFor(ada), member: String(bob.id) })), 'ExpertPanels.InviteLoadFailed', 'another member’s');
    t.equal(codeOf(await gql(varsFor(ada, new Date(clock.now().getTime() - 1000)))), 'ExpertPanels.InviteLoadFailed', 'expired, signed out');
    t.equal(codeOf(await gql(varsFor(ada), { host: 'beta.test' })), 'ExpertPanels.InviteLoadFailed', 'another community');
    for (const bad of [{ ids: ['x'] }, { member: '\u0000' }, { expires: -5 }, { signature: 'y'.repeat(5000) }, { ids: Array.from({ length: 60 }, (_, i) => String(i + 1)) }]) {
      const res = await gql({ ...varsFor(ada), ...bad });
      t.equal(codeOf(res), 'ExpertPanels.InviteLoadFailed', JSON.stringify(bad).slice(0, 60));
    }
    await db.updateTable('ep_answers').set({ status: 'submitted' }).where('user_id', '=', ada.id).execute();
    const none = await gql(varsFor(ada));
    t.equal(codeOf(none), 'ExpertPanels.InviteNoneUnanswered');
    t.match(none.json().errors?.[0]?.message, 'No unanswered questions found');
  });
});
