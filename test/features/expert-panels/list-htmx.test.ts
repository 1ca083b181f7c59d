import t from 'tap';
import { csrfFor, signIn, type TestUser } from '#test/helpers/factories.ts';
import { epWorld } from './member-world.ts';

const html = { accept: 'text/html' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const textOf = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');

t.test("marking a question from the member's list: a plain POST as before, with htmx the row alone and a polite announcement", async (t) => {
  const w = await epWorld(t);
  const { app, alpha } = w;
  const ada = await w.member(alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await w.member(alpha, { firstName: 'Bob', lastName: 'Builder' });
  const panel = await w.panel(alpha, { name: 'Growth', min: 5, max: 12 });
  const batch = await w.batch(alpha, panel, { deadlineDays: 10 });
  const pricing = await w.question(alpha, batch, panel, [ada.id], { title: 'What pricing change paid off?' });
  const channels = await w.question(alpha, batch, panel, [ada.id], { title: 'Which channel would you cut?' });
  const hiring = await w.question(alpha, batch, panel, [ada.id], { title: 'Who was your best hire?' });
  const reviewed = await w.question(alpha, batch, panel, [ada.id], { title: 'A question in review' });
  await w.editorSets(reviewed, ada.id, { status: 'submitted' });
  const bobs = await w.question(alpha, batch, panel, [bob.id], { title: "Bob's question" });

  const signed = (await signIn(app, ada, alpha)).cookie;
  const jar = await csrfFor(app, signed, '/expert-panels');
  const get = (url: string) => app.inject({ url, headers: { cookie: jar.cookie, ...html } });
  /** With htmx: the token in the header (the page's hx-headers) or, as the form carries it, in the body. */
  const hx = (url: string, fields: Record<string, string>, how: 'header' | 'body' | 'none' = 'header') =>
    app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.cookie, 'hx-request': 'true', ...(how === 'header' ? { 'x-csrf-token': jar.token } : {}), ...form, ...html },
      payload: new URLSearchParams({ ...(how === 'body' ? { _csrf: jar.token } : {}), ...fields }).toString(),
    });
  const plain = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { cookie: jar.cookie, ...form, ...html }, payload: new URLSearchParams({ _csrf: jar.token, ...fields }).toString() });
  const statusOf = async (questionId: number, user: TestUser = ada) => (await w.answerOf(questionId, user.id)).status;

  await t.test('the list offers both marks on each open row, htmx-ready, with its live region; not on a row in review', async (t) => {
    const res = await get('/expert-panels');
    t.equal(res.statusCode, 200);
    t.match(res.body, /<script defer nonce="[^"]+" src="[^"]*htmx[^"]*\.js"><\/script>/, 'htmx is on the page');
    t.match(res.body, /<body hx-headers="[^"]*x-csrf-token/, 'htmx sends the CSRF token in a header');
    const row = new RegExp(`<li class="ep-row" id="ep-row-${pricing}">[\\s\\S]*?</li>`).exec(res.body)?.[0] ?? '';
    const formTag = /<form [^>]*class="ep-row-marks"[^>]*>/.exec(row)?.[0] ?? '';
    for (const attr of ['method="post"', `action="/expert-panels/${pricing}/mark"`, `hx-post="/expert-panels/${pricing}/mark"`, `hx-target="#ep-row-${pricing}"`, 'hx-swap="outerHTML"']) t.match(formTag, attr, `the row's form: ${attr}`);
    t.match(row, /<input type="hidden" name="_csrf" value="[^"]+"/, 'and in the form, for the plain POST');
    t.match(row, /<button [^>]*value="cant_answer"[^>]*aria-label="Can&#x27;t answer: What pricing change paid off\?"[^>]*>Can&#x27;t answer<\/button>/, 'each button names its question to a screen reader');
    t.match(row, /<button [^>]*value="ignored"[^>]*aria-label="Ignore: What pricing change paid off\?"[^>]*>Ignore<\/button>/);
    t.match(res.body, /<p id="ep-live" class="visually-hidden" role="status"><\/p>/, 'one polite live region, empty');
    const review = await get('/expert-panels?tab=in-review');
    t.match(review.body, 'A question in review');
    t.notMatch(review.body, 'name="mark"', 'nothing to mark in review');
  });

  await t.test('with JavaScript off, the plain POST still redirects to the list with its alert', async (t) => {
    const res = await plain(`/expert-panels/${hiring}/mark`, { mark: 'cant_answer' });
    t.equal(res.statusCode, 303);
    t.equal(String(res.headers.location).replace(/^https?:\/\/[^/]+/, ''), '/expert-panels?alert=expert-question-cant-answer');
    t.equal(await statusOf(hiring), 'cant_answer');
    const list = await get('/expert-panels?alert=expert-question-cant-answer');
    t.match(textOf(list.body), "Marked as can't answer.");
    const row = new RegExp(`<li class="ep-row" id="ep-row-${hiring}">[\\s\\S]*?</li>`).exec(list.body)?.[0] ?? '';
    t.notMatch(row, 'value="cant_answer"', 'the mark it has is not offered again');
    t.match(row, 'value="ignored"', 'the other one is');
  });

  await t.test('with htmx, the answer is the row alone, in its new state, and the announcement out of band', async (t) => {
    const res = await hx(`/expert-panels/${pricing}/mark`, { mark: 'cant_answer' });
    t.equal(res.statusCode, 200);
    t.notMatch(res.body, '<html', 'a fragment, not a page');
    t.notOk(res.headers.location, 'no redirect');
    t.match(res.body, new RegExp(`^<li class="ep-row" id="ep-row-${pricing}">`), 'the row, to replace itself');
    t.match(textOf(res.body), "What pricing change paid off?");
    t.match(textOf(res.body), "Can't answer", 'its new state');
    t.notMatch(res.body, 'value="cant_answer"', 'that mark is not offered again');
    t.match(res.body, 'value="ignored"');
    t.match(res.body, /<p id="ep-live" class="visually-hidden" role="status" hx-swap-oob="innerHTML">“What pricing change paid off\?”: marked as can(&#x27;|')t answer\. You can still answer while it is open\.<\/p>$/, 'announced in the live region');
    t.notMatch(res.body, 'Which channel would you cut?', 'no other row');
    t.equal(await statusOf(pricing), 'cant_answer');

    const ignored = await hx(`/expert-panels/${channels}/mark`, { mark: 'ignored' }, 'body');
    t.equal(ignored.statusCode, 200, 'the token in the form works too');
    t.match(ignored.body, /hx-swap-oob="innerHTML">“Which channel would you cut\?”: ignored\./);
    t.equal(await statusOf(channels), 'ignored');
  });

  await t.test('with htmx, a refusal comes back as the row with the message beside its buttons', async (t) => {
    // The answer was picked up between the page and the click.
    const res = await hx(`/expert-panels/${reviewed}/mark`, { mark: 'ignored' });
    t.equal(res.statusCode, 200, 'htmx swaps only a 2xx answer');
    t.match(res.body, new RegExp(`^<li class="ep-row" id="ep-row-${reviewed}">`));
    t.match(res.body, /<p class="field-error" role="alert">An editor is reviewing this answer, so it can no longer be changed\.<\/p>/);
    t.notMatch(res.body, 'ep-live', 'nothing announced as done');
    t.notMatch(res.body, 'name="mark"', 'and nothing more to mark');
    t.equal(await statusOf(reviewed), 'submitted');

    // The question was closed between the page and the click.
    await w.db.updateTable('ep_questions').set({ closed_at: w.clock.now() }).where('id', '=', channels).execute();
    const closed = await hx(`/expert-panels/${channels}/mark`, { mark: 'cant_answer' });
    t.equal(closed.statusCode, 200);
    t.match(closed.body, /<p class="field-error" role="alert">This question is closed and takes no new answers\.<\/p>/);
    t.notMatch(closed.body, 'name="mark"', 'no buttons on a closed question');
    t.equal(await statusOf(channels), 'ignored', 'unchanged');
    const closedPlain = await plain(`/expert-panels/${channels}/mark`, { mark: 'cant_answer' });
    t.equal(closedPlain.statusCode, 409, 'without htmx: the question page with the message, as before');
    t.match(textOf(closedPlain.body), 'This question is closed and takes no new answers.');
  });

  await t.test('with htmx, what is not allowed stays refused', async (t) => {
    t.equal((await hx(`/expert-panels/${pricing}/mark`, { mark: 'ignored' }, 'none')).statusCode, 403, 'no CSRF token: refused');
    t.equal(await statusOf(pricing), 'cant_answer', 'unchanged');
    const other = await hx(`/expert-panels/${bobs}/mark`, { mark: 'ignored' });
    t.equal(other.statusCode, 404, "another member's question is not found");
    t.notMatch(other.body, "Bob's question");
    t.equal(await statusOf(bobs, bob), 'open');
    for (const id of ['0', '-1', 'abc', '99999999999', '1%00']) {
      const res = await hx(`/expert-panels/${id}/mark`, { mark: 'ignored' });
      t.equal(res.statusCode, 404, `a malformed id (${id}) is not found`);
    }
    for (const mark of ['accepted', '', 'ignored\u0000', 'x'.repeat(100_000)]) {
      const res = await hx(`/expert-panels/${channels}/mark`, { mark });
      t.equal(res.statusCode, 400, `a mark of ${JSON.stringify(mark.slice(0, 20))} is a 400`);
    }
    const signedOut = await app.inject({ method: 'POST', url: `/expert-panels/${channels}/mark`, headers: { 'hx-request': 'true', ...form, ...html }, payload: 'mark=ignored' });
    t.ok(signedOut.statusCode >= 400 && signedOut.statusCode < 500, `signed out: refused (${signedOut.statusCode})`);
  });
});
