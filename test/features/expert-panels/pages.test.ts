import t from 'tap';
import { csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';
import { epWorld, words } from './member-world.ts';

type Jar = { cookie: string; token: string };
const html = { accept: 'text/html' };
const textOf = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');

t.test('the expert-panel pages, with JavaScript off', async (t) => {
  const w = await epWorld(t);
  const { app, alpha, beta } = w;
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const bea = await w.member(beta, { firstName: 'Bea' });
  const panel = await w.panel(alpha, { name: 'Growth & Go-to-Market', min: 5, max: 12 });
  const batch = await w.batch(alpha, panel, { deadlineDays: 10 });
  const pricing = await w.question(alpha, batch, panel, [ada.id, bob.id], { title: 'What pricing change paid off?', brief: '<p>Tell us about the <strong>one</strong> change.</p>' });
  w.clock.advance(60_000);
  const channels = await w.question(alpha, batch, panel, [ada.id], { title: 'Which channel would you cut?' });
  const closed = await w.question(alpha, batch, panel, [ada.id], { title: 'An old question', closed: true });
  const bobOnly = await w.question(alpha, batch, panel, [bob.id], { title: "Bob's question" });
  const bPanel = await w.panel(beta);
  const betaQuestion = await w.question(beta, await w.batch(beta, bPanel), bPanel, [bea.id], { title: 'Beta question' });

  const jars = new Map<number, Jar>();
  const jarOf = async (user: TestUser, community = alpha, host?: string): Promise<Jar> => {
    const known = jars.get(user.id);
    if (known) return known;
    const signed = (await signIn(app, user, community)).cookie;
    const jar = host ? { cookie: signed, token: '' } : await csrfFor(app, signed, '/');
    jars.set(user.id, jar);
    return jar;
  };
  const get = async (user: TestUser, url: string) => app.inject({ url, headers: { cookie: (await jarOf(user)).cookie, ...html } });
  const post = async (user: TestUser, url: string, fields: Record<string, string>) => {
    const jar = await jarOf(user);
    const form = new URLSearchParams({ _csrf: jar.token, ...fields });
    return app.inject({ method: 'POST', url, headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded', ...html }, payload: form.toString() });
  };
  const follow = (location: unknown) => String(location).replace(/^https?:\/\/[^/]+/, '');

  await t.test('signed out, the questions are not shown', async (t) => {
    const res = await app.inject({ url: '/expert-panels', headers: html });
    t.ok([302, 303, 401].includes(res.statusCode), `refused or sent to sign in (${res.statusCode})`);
    t.notMatch(res.body, 'What pricing change paid off?');
  });

  await t.test('the list: tabs with counts, rows that link to their question, the deadline and panel', async (t) => {
    const res = await get(ada, '/expert-panels');
    t.equal(res.statusCode, 200);
    const text = textOf(res.body);
    t.match(text, 'Open (2)');
    t.match(text, 'In review (0)');
    t.match(res.body, /aria-current="page"[^>]*>Open \(2\)/, 'the open tab is current');
    t.match(res.body, `href="/expert-panels/${pricing}"`);
    t.match(res.body, `href="/expert-panels/${channels}"`);
    t.notMatch(res.body, 'An old question', 'a closed question is not open');
    t.notMatch(res.body, "Bob's question", "not another member's");
    t.ok(res.body.indexOf('Which channel would you cut?') < res.body.indexOf('What pricing change paid off?'), 'newest sent first');
    t.match(text, 'Panel: Growth & Go-to-Market');
    t.match(text, 'Answer by Dec 1, 2026');
    const empty = await get(ada, '/expert-panels?tab=published');
    t.equal(empty.statusCode, 200);
    t.match(textOf(empty.body), 'None of your answers is published yet', 'an empty state that says what to expect');
  });

  await t.test('the question page: brief, guidelines, deadline, the form with its word range', async (t) => {
    const res = await get(ada, `/expert-panels/${pricing}`);
    t.equal(res.statusCode, 200);
    t.match(res.body, '<h1>What pricing change paid off?</h1>');
    t.match(res.body, 'Tell us about the <strong>one</strong> change.');
    t.match(res.body, 'Write from your own experience.');
    t.match(textOf(res.body), 'Answer by Dec 1, 2026');
    t.match(textOf(res.body), 'Between 5 and 12 words.');
    t.match(res.body, 'Words: 0 (between 5 and 12)');
    t.match(res.body, 'data-island="AnswerDraft"', 'the draft helper is on the page');
    t.match(res.body, /value="cant_answer"[^>]*name="mark"/);
    t.match(res.body, /value="ignored"[^>]*name="mark"/);
  });

  await t.test("a refused answer comes back with the spec's message beside the field and the text as typed", async (t) => {
    const short = await post(ada, `/expert-panels/${pricing}/answer`, { body: 'Too short **really**' });
    t.equal(short.statusCode, 400);
    t.match(short.body, /<p class="field-error" id="ep-answer-error">Your answer is 3 words: please write at least 5 words\.<\/p>/);
    t.match(short.body, 'Too short **really**</textarea>', 'the text is kept');
    t.match(short.body, 'Words: 3 (between 5 and 12)', 'the count the server checked');
    const long = await post(ada, `/expert-panels/${pricing}/answer`, { body: words(13) });
    t.equal(long.statusCode, 400);
    t.match(long.body, 'Your answer is 13 words: please keep it to 12 words.');
    const empty = await post(ada, `/expert-panels/${pricing}/answer`, { body: '   ' });
    t.equal(empty.statusCode, 400);
    t.match(empty.body, 'Please write your answer.');
  });

  await t.test('an answer is submitted: in review, with an Edit possibility until an editor picks it up', async (t) => {
    const res = await post(ada, `/expert-panels/${pricing}/answer`, { body: 'We moved to **value based** tiers.\n\nIt paid off.' });
    t.equal(res.statusCode, 303);
    t.equal(follow(res.headers.location), `/expert-panels/${pricing}?alert=expert-answer-submitted`);
    const page = await get(ada, follow(res.headers.location));
    t.match(textOf(page.body), 'Your answer is submitted. It is in review.', 'the alert');
    t.match(textOf(page.body), 'In review: the editors will read your answer.');
    t.match(page.body, '<strong>value based</strong>', 'the answer as it stands');
    t.match(page.body, `href="/expert-panels/${pricing}?edit=1"`);
    t.notMatch(page.body, 'name="mark"', 'no more marking');
    t.notMatch(page.body, 'id="ep-answer-form"', 'no form until Edit');
    const list = await get(ada, '/expert-panels?tab=in-review');
    t.match(list.body, 'What pricing change paid off?');
    t.match(textOf(list.body), 'In review (1)');

    const edit = await get(ada, `/expert-panels/${pricing}?edit=1`);
    t.match(edit.body, 'We moved to **value based** tiers.\n\nIt paid off.</textarea>', 'the form holds the text');
    t.match(edit.body, 'name="editing" value="1"');
    const saved = await post(ada, `/expert-panels/${pricing}/answer`, { body: 'We moved to value based tiers and it paid off.', editing: '1' });
    t.equal(saved.statusCode, 303);
    t.match(follow(saved.headers.location), 'alert=expert-answer-updated');

    await w.editorSets(pricing, ada.id, { review: true });
    const picked = await get(ada, `/expert-panels/${pricing}?edit=1`);
    t.match(textOf(picked.body), 'An editor is reviewing your answer, so it can no longer be changed.');
    t.notMatch(picked.body, 'id="ep-answer-form"', 'no form');
    const late = await post(ada, `/expert-panels/${pricing}/answer`, { body: words(6), editing: '1' });
    t.equal(late.statusCode, 409);
    t.match(late.body, 'An editor is reviewing this answer, so it can no longer be changed.');
  });

  await t.test("can't answer and ignore: a redirect to the list with an alert; the question stays answerable", async (t) => {
    const res = await post(ada, `/expert-panels/${channels}/mark`, { mark: 'cant_answer' });
    t.equal(res.statusCode, 303);
    t.equal(follow(res.headers.location), '/expert-panels?alert=expert-question-cant-answer');
    const list = await get(ada, follow(res.headers.location));
    t.match(textOf(list.body), "Marked as can't answer.");
    t.match(textOf(list.body), "Can't answer");
    const ignored = await post(ada, `/expert-panels/${channels}/mark`, { mark: 'ignored' });
    t.equal(follow(ignored.headers.location), '/expert-panels?alert=expert-question-ignored');
    const page = await get(ada, `/expert-panels/${channels}`);
    t.match(textOf(page.body), 'You ignored this question. You can still answer while it is open.');
    t.match(page.body, 'id="ep-answer-form"');
    t.equal((await post(ada, `/expert-panels/${channels}/mark`, { mark: 'accepted' })).statusCode, 400, 'another mark is a 400');
  });

  await t.test('a closed question says it takes no new answers, and refuses one', async (t) => {
    const page = await get(ada, `/expert-panels/${closed}`);
    t.equal(page.statusCode, 200);
    t.match(page.body, 'This question is closed and takes no new answers.');
    t.notMatch(page.body, 'id="ep-answer-form"');
    const res = await post(ada, `/expert-panels/${closed}/answer`, { body: words(6) });
    t.equal(res.statusCode, 409);
    t.match(res.body, 'This question is closed and takes no new answers.');
    t.equal((await post(ada, `/expert-panels/${closed}/mark`, { mark: 'ignored' })).statusCode, 409);
  });

  await t.test('a published answer shows the final text and the live address', async (t) => {
    await w.editorSets(pricing, ada.id, { status: 'accepted', editedHtml: '<p>The final text by the editor.</p>' });
    await w.roundup(alpha, pricing, [ada.id], { title: 'Pricing moves that paid off', slug: 'pricing-moves' });
    const page = await get(ada, `/expert-panels/${pricing}`);
    t.match(textOf(page.body), 'Your answer is published in the roundup “Pricing moves that paid off”.');
    t.match(page.body, 'href="/expert-panels/roundups/pricing-moves"');
    t.match(page.body, '<p>The final text by the editor.</p>');
    const list = await get(ada, '/expert-panels?tab=published');
    t.match(list.body, 'href="/expert-panels/roundups/pricing-moves"');
  });

  await t.test("another member's, another community's or a missing question is 'Question not found'", async (t) => {
    for (const id of [bobOnly, betaQuestion, 999_999]) {
      const res = await get(ada, `/expert-panels/${id}`);
      t.equal(res.statusCode, 404, `question ${id}`);
      t.match(res.body, 'Question not found');
    }
    t.equal((await post(ada, `/expert-panels/${bobOnly}/answer`, { body: words(6) })).statusCode, 404, 'answering it');
    t.equal((await w.answerOf(bobOnly, bob.id)).status, 'open');
    const beaCookie = (await signIn(app, bea, beta)).cookie;
    const fromBeta = await app.inject({ url: `/expert-panels/${pricing}`, headers: { host: 'beta.test', cookie: beaCookie, ...html } });
    t.equal(fromBeta.statusCode, 404, "alpha's question from beta");
    const own = await app.inject({ url: `/expert-panels/${betaQuestion}`, headers: { host: 'beta.test', cookie: beaCookie, ...html } });
    t.equal(own.statusCode, 200, 'Bea reads her own in beta');
  });

  await t.test('hostile input is a 4xx, never a 5xx; a form without its CSRF token is refused', async (t) => {
    const nul = await post(bob, `/expert-panels/${pricing}/answer`, { body: `Null\u0000 byte in a long enough answer` });
    t.equal(nul.statusCode, 400);
    t.match(nul.body, 'field-error');
    const huge = await post(bob, `/expert-panels/${pricing}/answer`, { body: 'x '.repeat(150_000) });
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge answer (${huge.statusCode})`);
    for (const url of ['/expert-panels/abc', '/expert-panels/0', '/expert-panels/99999999999']) {
      t.equal((await get(bob, url)).statusCode, 404, url);
    }
    t.equal((await get(bob, '/expert-panels?tab=nope')).statusCode, 400, 'an unknown tab');
    t.equal((await get(bob, '/expert-panels?after=!!!')).statusCode, 400, 'a malformed cursor');
    t.equal((await get(bob, '/expert-panels?after=bm9wZQ')).statusCode, 400, 'a cursor of nonsense');
    const noCsrf = await app.inject({
      method: 'POST',
      url: `/expert-panels/${pricing}/answer`,
      headers: { cookie: (await jarOf(bob)).cookie, 'content-type': 'application/x-www-form-urlencoded', ...html },
      payload: `body=${encodeURIComponent(words(6))}`,
    });
    t.equal(noCsrf.statusCode, 403, 'without the token');
    t.equal((await w.answerOf(pricing, bob.id)).status, 'open', 'nothing saved');
  });

  await t.test('each page costs at most 5 SQL statements (the bench budget), session included', async (t) => {
    const sql = (res: { headers: Record<string, unknown> }) => Number(/dur=(\d+)/.exec(String(res.headers['server-timing']))?.[1] ?? Number.NaN);
    await get(ada, '/expert-panels');
    const list = await get(ada, '/expert-panels?tab=answered');
    t.ok(sql(list) <= 5, `the questions: ${sql(list)} statements`);
    await get(ada, `/expert-panels/${pricing}`);
    const one = await get(ada, `/expert-panels/${pricing}`);
    t.ok(sql(one) <= 5, `a question: ${sql(one)} statements`);
  });

  await t.test('older pages: an "Older questions" link to the next keyset page', async (t) => {
    for (let i = 0; i < 21; i++) await w.question(alpha, batch, panel, [bob.id], { title: `Filler question ${i}` });
    const first = await get(bob, '/expert-panels');
    const older = /href="(\/expert-panels\?after=[^"]+)"[^>]*>Older questions/.exec(first.body)?.[1];
    t.ok(older, 'a link to older questions');
    const second = await get(bob, older!.replace(/&amp;/g, '&'));
    t.equal(second.statusCode, 200);
    t.notMatch(second.body, 'Older questions', 'the last page');
    t.match(second.body, 'What pricing change paid off?', 'the oldest is on the second page');
  });
});
