import t from 'tap';
import { browserWorld } from '#test/helpers/browser-world.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

t.test('conversations in the browser: Amara opens a conversation from her messages and replies', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const amara = await createMember(db, alpha, { firstName: 'Amara', lastName: 'Okafor' });
  const kwame = await createMember(db, alpha, { firstName: 'Kwame', lastName: 'Mensah', companyName: 'Brightline Solar and Storage Installations' });
  await db.insertInto('introduction_requests').values({ community_id: alpha.id, requester_id: kwame.id, target_id: amara.id, reason: 'Forecasting install demand across three states.', status: 'APPROVED' }).execute();
  // Kwame writes first (as his page would), with a long unbroken address that must not push the page sideways.
  const kwameCookie = (await signIn(app, kwame, alpha)).cookie;
  const c = await csrfFor(app, kwameCookie, '/messages/conversations');
  const body = 'Hi Amara, Kwame from Brightline here.\nHow does your team validate forecasts around incentive deadlines? Our notes: https://example.com/brightline/forecasting/incentive-deadlines-2026-texas-arizona-nevada';
  const sent = await app.inject({ method: 'POST', url: `/messages/conversations/with/${amara.id}`, headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ body, _csrf: c.token }).toString() });
  t.equal(sent.statusCode, 303);

  const browser = await browserReady;
  const context = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, amara, alpha)).token });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: true });

  await page.goto('/messages/conversations');
  await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
  t.ok(await page.getByRole('link', { name: 'Conversations, 1 unread' }).isVisible(), 'the tab says how many are unread');
  t.ok(await page.getByText('1 unread message').isVisible());
  await check('the conversations list');

  await Promise.all([page.waitForURL(/\/messages\/conversations\/\d+$/), page.getByRole('link', { name: 'Kwame Mensah' }).click()]);
  await page.getByRole('heading', { name: 'Conversation with Kwame Mensah', level: 1 }).waitFor();
  t.ok(await page.getByText('How does your team validate forecasts').isVisible());
  await check('a thread');

  await page.getByLabel('Your message to Kwame Mensah').fill('Hi Kwame, good to meet you.\nWe backtest on windows that include past breaks. Happy to share our checklist.');
  await Promise.all([page.waitForURL(/\/messages\/conversations\/\d+#m\d+$/), page.getByRole('button', { name: 'Send' }).click()]);
  const last = page.locator('.conversation-message').last();
  t.match(await last.innerText(), 'Happy to share our checklist.', 'the reply is the newest, at the bottom');
  t.match(pathOf(page), /^\/messages\/conversations\/\d+$/);
  t.notOk(await page.getByRole('link', { name: /Conversations, \d+ unread/ }).count(), 'nothing unread now');
  await check('the thread after a reply');

  const notices = await db.selectFrom('notifications').select('message').where('user_id', '=', kwame.id).where('kind', '=', 'conversations').execute();
  t.same(notices.map((n) => n.message), ['Amara Okafor sent you a message'], 'Kwame is notified');
  t.same(problems, [], 'no errors in the pages');
});
